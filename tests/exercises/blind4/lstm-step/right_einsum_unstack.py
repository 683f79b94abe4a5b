"""Right: the four blocks via reshape to (..., 4, H) and unpacking along the gate axis, einsum for the map."""
import numpy as np


def lstm_step(x_t, h_prev, c_prev, W, b):
    H = h_prev.shape[-1]
    joined = np.concatenate([h_prev, x_t], axis=-1)
    q = np.einsum("...k,gk->...g", joined, W) + b
    blocks = np.moveaxis(q.reshape((*q.shape[:-1], 4, H)), -2, 0)
    i, f, o = (1.0 / (1.0 + np.exp(-np.clip(blk, -500, 500))) for blk in (blocks[0], blocks[1], blocks[3]))
    g = np.tanh(blocks[2])
    c_t = f * c_prev + i * g
    return o * np.tanh(c_t), c_t
