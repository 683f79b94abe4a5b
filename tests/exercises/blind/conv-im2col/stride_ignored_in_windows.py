"""Takes every window at stride 1 and keeps the first H' x W' of them, ignoring the stride."""

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

RIGHT_DIAGNOSES = ("first_windows_at_stride_one",)


def conv_forward(x, w, b, stride, pad):
    F, C, HH, WW = w.shape
    N, _, H, W = x.shape
    Ho = 1 + (H + 2 * pad - HH) // stride
    Wo = 1 + (W + 2 * pad - WW) // stride
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    win = sliding_window_view(xp, (HH, WW), axis=(2, 3))[:, :, :Ho, :Wo]
    cols = win.transpose(0, 2, 3, 1, 4, 5).reshape(N * Ho * Wo, -1)
    return (cols @ w.reshape(F, -1).T + b).reshape(N, Ho, Wo, F).transpose(0, 3, 1, 2)
