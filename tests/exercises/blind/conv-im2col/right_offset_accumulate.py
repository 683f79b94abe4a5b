"""Shortcut: accumulates one tensordot per filter offset (HH*WW products), never building im2col."""

import numpy as np


def conv_forward(x, w, b, stride, pad):
    N, C, H, W = x.shape
    F, _, HH, WW = w.shape
    Ho = 1 + (H + 2 * pad - HH) // stride
    Wo = 1 + (W + 2 * pad - WW) // stride
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    out = np.zeros((N, F, Ho, Wo)) + b[None, :, None, None]
    for k in range(HH):
        for l in range(WW):
            patch = xp[:, :, k : k + stride * Ho : stride, l : l + stride * Wo : stride]
            out += np.einsum("nchw,fc->nfhw", patch, w[:, :, k, l])
    return out
