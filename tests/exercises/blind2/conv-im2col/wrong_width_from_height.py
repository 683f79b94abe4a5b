"""Computes the output width from the height (W' = H'), so non-square inputs or filters come out wrong."""
import numpy as np


def conv_forward(x, w, b, stride, pad):
    N, C, H, W = x.shape
    F, _, HH, WW = w.shape
    H_out = 1 + (H + 2 * pad - HH) // stride
    W_out = H_out
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    cols = np.zeros((N, H_out, W_out, C, HH, WW))
    for k in range(HH):
        for l in range(WW):
            patch = xp[:, :, k:k + stride * H_out:stride, l:l + stride * W_out:stride]
            cols[:, :patch.shape[2], :patch.shape[3], :, k, l] = patch.transpose(0, 2, 3, 1)
    out = cols.reshape(N * H_out * W_out, -1) @ w.reshape(F, -1).T + b
    return out.reshape(N, H_out, W_out, F).transpose(0, 3, 1, 2)


RIGHT_DIAGNOSES = ("width_from_the_height",)
