# expect: verdict=passed score=24 diagnosis=none
"""Another correct method: the windows gathered with index arrays (the classic im2col by
fancy indexing), then one tensor contraction with np.einsum instead of a reshape and @."""

import numpy as np


def conv_forward(x, w, b, stride, pad):
    _, _, H, W = x.shape
    _, _, HH, WW = w.shape
    H_out = 1 + (H + 2 * pad - HH) // stride
    W_out = 1 + (W + 2 * pad - WW) // stride
    padded = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)), mode="constant")
    rows = (stride * np.arange(H_out))[:, None] + np.arange(HH)[None, :]  # (H_out, HH)
    cols = (stride * np.arange(W_out))[:, None] + np.arange(WW)[None, :]  # (W_out, WW)
    # patches[n, c, i, k, j, l] = padded[n, c, rows[i, k], cols[j, l]]
    patches = padded[:, :, rows[:, :, None, None], cols[None, None, :, :]]
    return np.einsum("ncikjl,fckl->nfij", patches, w) + b[None, :, None, None]
