"""Mistake: im2col columns ordered (k, l, c) while the filters are reshaped in (c, k, l) order."""
import numpy as np


def conv_forward(x, w, b, stride, pad):
    N, C, H, W = x.shape
    F, _, HH, WW = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    Ho = 1 + (H + 2 * pad - HH) // stride
    Wo = 1 + (W + 2 * pad - WW) // stride
    cols = np.empty((N, Ho, Wo, HH, WW, C))
    for k in range(HH):
        for l in range(WW):
            cols[:, :, :, k, l, :] = xp[:, :, k:k + stride * Ho:stride, l:l + stride * Wo:stride].transpose(0, 2, 3, 1)
    out = cols.reshape(N * Ho * Wo, -1) @ w.reshape(F, -1).T + b
    return out.reshape(N, Ho, Wo, F).transpose(0, 3, 1, 2)


RIGHT_DIAGNOSES = ("columns_channel_last",)
