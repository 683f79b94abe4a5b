"""Pads every axis of x with np.pad(x, pad), adding zero images and zero channels too."""

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view


def conv_forward(x, w, b, stride, pad):
    F, C, HH, WW = w.shape
    xp = np.pad(x, pad)
    win = sliding_window_view(xp, (HH, WW), axis=(2, 3))[:, :C, ::stride, ::stride]
    N, _, Ho, Wo = win.shape[:4]
    cols = win.transpose(0, 2, 3, 1, 4, 5).reshape(N * Ho * Wo, -1)
    return (cols @ w.reshape(F, -1).T + b).reshape(N, Ho, Wo, F).transpose(0, 3, 1, 2)
