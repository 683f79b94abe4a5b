"""Adds the bias along the last axis of the final (N, F, H', W') array instead of per filter."""

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

RIGHT_DIAGNOSES = ("bias_along_the_last_axis",)


def conv_forward(x, w, b, stride, pad):
    F, C, HH, WW = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    win = sliding_window_view(xp, (HH, WW), axis=(2, 3))[:, :, ::stride, ::stride]
    N, _, Ho, Wo = win.shape[:4]
    cols = win.transpose(0, 2, 3, 1, 4, 5).reshape(N * Ho * Wo, -1)
    out = (cols @ w.reshape(F, -1).T).reshape(N, Ho, Wo, F).transpose(0, 3, 1, 2)
    return out + b
