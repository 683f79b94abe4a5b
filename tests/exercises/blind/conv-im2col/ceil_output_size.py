"""Rounds the output size up (a partial last window, padded with zeros) instead of down."""

import numpy as np

RIGHT_DIAGNOSES = ("output_size_rounded_up",)


def conv_forward(x, w, b, stride, pad):
    N, C, H, W = x.shape
    F, _, HH, WW = w.shape
    Ho = 1 + -(-(H + 2 * pad - HH) // stride)
    Wo = 1 + -(-(W + 2 * pad - WW) // stride)
    extra_h = (Ho - 1) * stride + HH - (H + 2 * pad)
    extra_w = (Wo - 1) * stride + WW - (W + 2 * pad)
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad + extra_h), (pad, pad + extra_w)))
    cols = np.empty((N, Ho, Wo, C, HH, WW))
    for k in range(HH):
        for l in range(WW):
            cols[..., k, l] = xp[
                :, :, k : k + stride * Ho : stride, l : l + stride * Wo : stride
            ].transpose(0, 2, 3, 1)
    out = cols.reshape(N * Ho * Wo, -1) @ w.reshape(F, -1).T + b
    return out.reshape(N, Ho, Wo, F).transpose(0, 3, 1, 2)
