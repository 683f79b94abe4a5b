"""The output size without its 1 +: (H + 2 pad - HH) // stride windows, the last row and
column of windows lost."""

import numpy as np

HINT = (
    "Your output has one row and one column of windows too few: the last windows are "
    "missing. The number of windows counts the first one too: H' = 1 + (H + 2 pad - HH) // "
    "stride, and likewise W' = 1 + (W + 2 pad - WW) // stride."
)


def conv_forward(x, w, b, stride, pad):
    N, _, H, W = x.shape
    F, _, HH, WW = w.shape
    H_out = (H + 2 * pad - HH) // stride  # the mistake: no 1 +
    W_out = (W + 2 * pad - WW) // stride
    padded = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    out = np.empty((N, F, H_out, W_out))
    for i in range(H_out):
        for j in range(W_out):
            window = padded[:, :, i * stride : i * stride + HH, j * stride : j * stride + WW]
            out[:, :, i, j] = np.tensordot(window, w, axes=([1, 2, 3], [1, 2, 3])) + b
    return out
