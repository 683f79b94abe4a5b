"""im2col convolution whose window for output (i, j) starts at (i, j) instead of (i*stride, j*stride)."""
import numpy as np


def conv_forward(x, w, b, stride, pad):
    N, C, H, W = x.shape
    F, _, HH, WW = w.shape
    H_out = 1 + (H + 2 * pad - HH) // stride
    W_out = 1 + (W + 2 * pad - WW) // stride
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    cols = np.empty((N, H_out, W_out, C * HH * WW))
    for i in range(H_out):
        for j in range(W_out):
            cols[:, i, j, :] = xp[:, :, i:i + HH, j:j + WW].reshape(N, -1)
    out = cols.reshape(-1, C * HH * WW) @ w.reshape(F, -1).T + b
    return out.reshape(N, H_out, W_out, F).transpose(0, 3, 1, 2)


RIGHT_DIAGNOSES = ("first_windows_at_stride_one",)
