"""Shortcut: loops over every output position with a dot product each, the loops im2col removes."""

import numpy as np


def conv_forward(x, w, b, stride, pad):
    N, C, H, W = x.shape
    F, _, HH, WW = w.shape
    Ho = 1 + (H + 2 * pad - HH) // stride
    Wo = 1 + (W + 2 * pad - WW) // stride
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    wf = w.reshape(F, -1)
    out = np.empty((N, F, Ho, Wo))
    for n in range(N):
        for i in range(Ho):
            for j in range(Wo):
                window = xp[
                    n, :, i * stride : i * stride + HH, j * stride : j * stride + WW
                ].ravel()
                out[n, :, i, j] = wf @ window + b
    return out
