"""im2col convolution that computes the padded output size but never pads the input (windows clipped at the border)."""
import numpy as np


def conv_forward(x, w, b, stride, pad):
    N, C, H, W = x.shape
    F, _, HH, WW = w.shape
    H_out = 1 + (H + 2 * pad - HH) // stride
    W_out = 1 + (W + 2 * pad - WW) // stride
    cols = np.zeros((N, H_out, W_out, C, HH, WW))
    for i in range(H_out):
        for j in range(W_out):
            patch = x[:, :, i * stride:i * stride + HH, j * stride:j * stride + WW]
            cols[:, i, j, :, :patch.shape[2], :patch.shape[3]] = patch
    cols = cols.reshape(N * H_out * W_out, C * HH * WW)
    out = cols @ w.reshape(F, -1).T + b
    return out.reshape(N, H_out, W_out, F).transpose(0, 3, 1, 2)


RIGHT_DIAGNOSES = ("unpadded_windows_of_the_padded_size",)
