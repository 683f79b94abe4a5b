"""Reference: a 2-D convolution layer (cross-correlation, as in deep-learning libraries) as one
matrix product of the im2col matrix and the flattened filters."""

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view


def conv_forward(x, w, b, stride, pad):
    """out[n, f, i, j] = sum over c, k, l of w[f, c, k, l] * x_pad[n, c, i*stride + k,
    j*stride + l] + b[f]."""
    N, C, _, _ = x.shape
    F, _, HH, WW = w.shape
    padded = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    # Every HH x WW window of the padded images, every stride-th one: (N, C, H', W', HH, WW).
    windows = sliding_window_view(padded, (HH, WW), axis=(2, 3))[:, :, ::stride, ::stride]
    H_out, W_out = windows.shape[2], windows.shape[3]
    # One row per output position, its columns in the order of w's own (C, HH, WW) axes.
    cols = windows.transpose(0, 2, 3, 1, 4, 5).reshape(N * H_out * W_out, C * HH * WW)
    out = cols @ w.reshape(F, C * HH * WW).T + b
    return out.reshape(N, H_out, W_out, F).transpose(0, 3, 1, 2)
