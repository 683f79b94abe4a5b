"""Flips the filters (true convolution) while the statement asks for cross-correlation."""

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

RIGHT_DIAGNOSES = ("filters_flipped",)


def conv_forward(x, w, b, stride, pad):
    F = w.shape[0]
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    win = sliding_window_view(xp, w.shape[2:], axis=(2, 3))[:, :, ::stride, ::stride]
    N, C, Ho, Wo, HH, WW = win.shape
    cols = win.transpose(0, 2, 3, 1, 4, 5).reshape(N * Ho * Wo, C * HH * WW)
    wf = w[:, :, ::-1, ::-1].reshape(F, -1)
    return (cols @ wf.T + b).reshape(N, Ho, Wo, F).transpose(0, 3, 1, 2)
