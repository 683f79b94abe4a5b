"""The output sized for the padding, but the windows read from the unpadded image (zeros past
its end)."""

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

HINT = (
    "Your output has the right size but not the right windows: they start at the image's "
    "own first row and column, as if the zeros of the padding were missing on the top and "
    "left (and the windows that run past the image's end read zeros). Pad every image with "
    "pad zeros on each side of its two spatial axes before taking the windows."
)


def conv_forward(x, w, b, stride, pad):
    N, C, _, _ = x.shape
    F, _, HH, WW = w.shape
    # The 2 * pad zeros all come after the image: its top left corner is never padded.
    padded = np.pad(x, ((0, 0), (0, 0), (0, 2 * pad), (0, 2 * pad)))
    windows = sliding_window_view(padded, (HH, WW), axis=(2, 3))[:, :, ::stride, ::stride]
    H_out, W_out = windows.shape[2], windows.shape[3]
    cols = windows.transpose(0, 2, 3, 1, 4, 5).reshape(N * H_out * W_out, C * HH * WW)
    out = cols @ w.reshape(F, C * HH * WW).T + b
    return out.reshape(N, H_out, W_out, F).transpose(0, 3, 1, 2)
