"""Right: im2col through numpy.lib.stride_tricks.sliding_window_view, then one tensordot."""
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view


def conv_forward(x, w, b, stride, pad):
    F, C, HH, WW = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    windows = sliding_window_view(xp, (HH, WW), axis=(2, 3))[:, :, ::stride, ::stride]
    # windows: (N, C, Ho, Wo, HH, WW) -> rows (n, i, j), columns (c, k, l)
    N, _, Ho, Wo = windows.shape[:4]
    cols = windows.transpose(0, 2, 3, 1, 4, 5).reshape(N * Ho * Wo, C * HH * WW)
    out = cols @ w.reshape(F, -1).T + b
    return np.ascontiguousarray(out.reshape(N, Ho, Wo, F).transpose(0, 3, 1, 2), dtype=np.float64)
