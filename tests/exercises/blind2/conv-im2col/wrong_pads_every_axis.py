"""Pads with np.pad(x, pad), which adds zeros on all four axes (extra images and channels), not only H and W."""
import numpy as np


def conv_forward(x, w, b, stride, pad):
    N, C, H, W = x.shape
    F, _, HH, WW = w.shape
    H_out = 1 + (H + 2 * pad - HH) // stride
    W_out = 1 + (W + 2 * pad - WW) // stride
    xp = np.pad(x, pad)
    cols = np.empty((N, H_out, W_out, C, HH, WW))
    for k in range(HH):
        for l in range(WW):
            cols[:, :, :, :, k, l] = xp[:N, :C, k:k + stride * H_out:stride, l:l + stride * W_out:stride].transpose(0, 2, 3, 1)
    out = cols.reshape(N * H_out * W_out, -1) @ w.reshape(F, -1).T + b
    return out.reshape(N, H_out, W_out, F).transpose(0, 3, 1, 2)


RIGHT_DIAGNOSES = ("pad_every_axis",)
