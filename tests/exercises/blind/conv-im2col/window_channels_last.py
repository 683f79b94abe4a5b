"""Lays each window out as (row, column, channel) while the filters are flattened as (channel, row, column)."""

import numpy as np

RIGHT_DIAGNOSES = ("columns_channel_last",)


def conv_forward(x, w, b, stride, pad):
    N, C, H, W = x.shape
    F, _, HH, WW = w.shape
    Ho = 1 + (H + 2 * pad - HH) // stride
    Wo = 1 + (W + 2 * pad - WW) // stride
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    cols = np.empty((N, Ho, Wo, HH, WW, C))
    for k in range(HH):
        for l in range(WW):
            cols[:, :, :, k, l, :] = xp[
                :, :, k : k + stride * Ho : stride, l : l + stride * Wo : stride
            ].transpose(0, 2, 3, 1)
    out = cols.reshape(N * Ho * Wo, -1) @ w.reshape(F, -1).T + b
    return out.reshape(N, Ho, Wo, F).transpose(0, 3, 1, 2)
