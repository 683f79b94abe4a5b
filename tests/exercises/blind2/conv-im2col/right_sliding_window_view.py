"""Correct: im2col from numpy's sliding_window_view, strided, then one tensordot."""
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view


def conv_forward(x, w, b, stride, pad):
    F, C, HH, WW = w.shape
    xp = np.pad(np.asarray(x, dtype=np.float64), [(0, 0), (0, 0), (pad, pad), (pad, pad)])
    windows = sliding_window_view(xp, (HH, WW), axis=(2, 3))[:, :, ::stride, ::stride]
    n, _, ho, wo = windows.shape[:4]
    cols = windows.transpose(0, 2, 3, 1, 4, 5).reshape(n * ho * wo, C * HH * WW)
    out = np.tensordot(cols, w.reshape(F, -1), axes=([1], [1])) + b
    return np.ascontiguousarray(out.reshape(n, ho, wo, F).transpose(0, 3, 1, 2), dtype=np.float64)
