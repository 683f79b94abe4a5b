"""The output size right for the stride, but its windows the first ones at stride 1."""

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

HINT = (
    "Your output has the right size for the stride, but its windows are the first H' x W' "
    "windows at stride 1: consecutive windows overlap as if the stride were 1, and the "
    "later ones are never reached. Take every stride-th window in both directions: output "
    "position (i, j) reads the window starting at row i * stride and column j * stride."
)


def conv_forward(x, w, b, stride, pad):
    N, C, H, W = x.shape
    F, _, HH, WW = w.shape
    H_out = 1 + (H + 2 * pad - HH) // stride
    W_out = 1 + (W + 2 * pad - WW) // stride
    padded = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    windows = sliding_window_view(padded, (HH, WW), axis=(2, 3))[:, :, :H_out, :W_out]
    cols = windows.transpose(0, 2, 3, 1, 4, 5).reshape(N * H_out * W_out, C * HH * WW)
    out = cols @ w.reshape(F, C * HH * WW).T + b
    return out.reshape(N, H_out, W_out, F).transpose(0, 3, 1, 2)
