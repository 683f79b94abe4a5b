"""Computes the output size with the padding but forgets to pad the image, windows read past the edge."""

import numpy as np

RIGHT_DIAGNOSES = ("unpadded_windows_of_the_padded_size",)


def conv_forward(x, w, b, stride, pad):
    N, C, H, W = x.shape
    F, _, HH, WW = w.shape
    Ho = 1 + (H + 2 * pad - HH) // stride
    Wo = 1 + (W + 2 * pad - WW) // stride
    cols = np.zeros((N, Ho, Wo, C, HH, WW))
    for k in range(HH):
        for l in range(WW):
            patch = x[:, :, k::stride, l::stride][:, :, :Ho, :Wo]
            cols[:, : patch.shape[2], : patch.shape[3], :, k, l] = patch.transpose(0, 2, 3, 1)
    out = cols.reshape(N * Ho * Wo, -1) @ w.reshape(F, -1).T + b
    return out.reshape(N, Ho, Wo, F).transpose(0, 3, 1, 2)
