"""Gates read from interleaved rows (every fourth entry of q, as after a reshape to (H, 4))
instead of four contiguous blocks of H rows."""

import numpy as np

HINT = ("Your result is right for a single unit only. The four gates' rows are not "
        "interleaved: each gate owns one contiguous block of H rows of W (and H entries of b). "
        "Check how you cut the 4H pre-activations into the four gates.")


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def lstm_step(x_t, h_prev, c_prev, W, b):
    a = np.concatenate([h_prev, x_t], axis=-1) @ W.T + b
    i, f, g, o = a[..., 0::4], a[..., 1::4], a[..., 2::4], a[..., 3::4]
    c_t = _sigmoid(f) * c_prev + _sigmoid(i) * np.tanh(g)
    return _sigmoid(o) * np.tanh(c_t), c_t
