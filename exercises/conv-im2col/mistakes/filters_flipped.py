"""A convolution in the sense of signal processing: every filter turned by 180 degrees."""

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

HINT = ("Your result is the layer's with every filter turned by 180 degrees: you flipped the "
        "filters, as the convolution of signal processing does. A convolution layer "
        "multiplies each window by the filter as it is: w[f, c, k, l] meets x_pad[n, c, "
        "i*stride + k, j*stride + l].")


def conv_forward(x, w, b, stride, pad):
    N, C, _, _ = x.shape
    F, _, HH, WW = w.shape
    w = w[:, :, ::-1, ::-1]
    padded = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    windows = sliding_window_view(padded, (HH, WW), axis=(2, 3))[:, :, ::stride, ::stride]
    H_out, W_out = windows.shape[2], windows.shape[3]
    cols = windows.transpose(0, 2, 3, 1, 4, 5).reshape(N * H_out * W_out, C * HH * WW)
    out = cols @ w.reshape(F, C * HH * WW).T + b
    return out.reshape(N, H_out, W_out, F).transpose(0, 3, 1, 2)
