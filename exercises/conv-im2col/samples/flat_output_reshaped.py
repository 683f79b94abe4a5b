# expect: verdict=failed score=4 diagnosis=output_reshaped_without_transpose
"""A learner who builds im2col with a loop over the filter's offsets (as many course notes
do) and reshapes the product straight into the output's shape."""

import numpy as np


def conv_forward(x, w, b, stride, pad):
    N, C, H, W = x.shape
    F, _, HH, WW = w.shape
    Ho = (H + 2 * pad - HH) // stride + 1
    Wo = (W + 2 * pad - WW) // stride + 1
    xp = np.pad(x, [(0, 0), (0, 0), (pad, pad), (pad, pad)])
    col = np.zeros((N, C, HH, WW, Ho, Wo))
    for dy in range(HH):
        for dx in range(WW):
            col[:, :, dy, dx] = xp[:, :, dy:dy + stride * Ho:stride, dx:dx + stride * Wo:stride]
    col = col.transpose(0, 4, 5, 1, 2, 3).reshape(N * Ho * Wo, -1)
    out = col @ w.reshape(F, -1).T + b
    return out.reshape(N, F, Ho, Wo)
