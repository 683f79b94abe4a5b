"""No zeros added around the images."""

from numpy.lib.stride_tricks import sliding_window_view

HINT = ("Your output is smaller than expected when pad > 0: add pad rows and columns of zeros "
        "on each side of every image (np.pad on the last two axes only) before taking the "
        "windows.")


def conv_forward(x, w, b, stride, pad):
    N, C, _, _ = x.shape
    F, _, HH, WW = w.shape
    windows = sliding_window_view(x, (HH, WW), axis=(2, 3))[:, :, ::stride, ::stride]
    H_out, W_out = windows.shape[2], windows.shape[3]
    cols = windows.transpose(0, 2, 3, 1, 4, 5).reshape(N * H_out * W_out, C * HH * WW)
    out = cols @ w.reshape(F, C * HH * WW).T + b
    return out.reshape(N, H_out, W_out, F).transpose(0, 3, 1, 2)
