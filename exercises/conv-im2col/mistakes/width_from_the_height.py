"""The output width taken from the height (W' = H'): right for square images and filters only;
columns beyond the true width read zeros past the image's edge."""

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

HINT = (
    "Your output is as wide as it is high: the number of windows along the width was taken "
    "from the height's. Count each on its own: H' = 1 + (H + 2 pad - HH) // stride from the "
    "height and the filter's height, W' = 1 + (W + 2 pad - WW) // stride from the width and "
    "the filter's width."
)


def conv_forward(x, w, b, stride, pad):
    _, _, H, W = x.shape
    _, _, HH, WW = w.shape
    H_out = 1 + (H + 2 * pad - HH) // stride
    W_out = H_out  # the mistake
    # Columns of windows past the true width read zeros, as when the image is extended by them.
    extra = max(0, (W_out - 1) * stride + WW - (W + 2 * pad))
    padded = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad + extra)))
    windows = sliding_window_view(padded, (HH, WW), axis=(2, 3))[:, :, ::stride, ::stride]
    windows = windows[:, :, :H_out, :W_out]
    out = np.einsum("nchwkl,fckl->nfhw", windows, w)
    return out + b[None, :, None, None]
