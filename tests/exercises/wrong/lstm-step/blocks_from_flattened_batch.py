"""Slices the gate blocks from the flattened batch (wrong axis): only unbatched works."""

import numpy as np

RIGHT_DIAGNOSES = ("blocks_from_flattened_batch",)


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def lstm_step(x_t, h_prev, c_prev, W, b):
    H = h_prev.shape[-1]
    a = (np.concatenate([h_prev, x_t], axis=-1) @ W.T + b).reshape(-1)
    i, f, g, o = (a[k * H:(k + 1) * H] for k in range(4))
    c_t = _sigmoid(f) * c_prev + _sigmoid(i) * np.tanh(g)
    return _sigmoid(o) * np.tanh(c_t), c_t
