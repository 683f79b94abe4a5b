"""Every window computed, stride or not."""

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

HINT = ("Your output has a window at every position: with a stride S only every S-th window, "
        "in both directions, is computed, and H_out = 1 + (H + 2 pad - HH) // S.")


def conv_forward(x, w, b, stride, pad):
    N, C, _, _ = x.shape
    F, _, HH, WW = w.shape
    padded = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    windows = sliding_window_view(padded, (HH, WW), axis=(2, 3))
    H_out, W_out = windows.shape[2], windows.shape[3]
    cols = windows.transpose(0, 2, 3, 1, 4, 5).reshape(N * H_out * W_out, C * HH * WW)
    out = cols @ w.reshape(F, C * HH * WW).T + b
    return out.reshape(N, H_out, W_out, F).transpose(0, 3, 1, 2)
