"""float32 arithmetic cast back to float64: only ~7 digits right."""

import numpy as np

RIGHT_DIAGNOSES = ("float32_arithmetic",)


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def _blocks(x_t, h_prev, W, b):
    H = h_prev.shape[-1]
    a = np.concatenate([h_prev, x_t], axis=-1) @ W.T + b
    return [a[..., k * H:(k + 1) * H] for k in range(4)]


def lstm_step(x_t, h_prev, c_prev, W, b):
    x_t, h_prev, c_prev, W, b = (v.astype(np.float32) for v in (x_t, h_prev, c_prev, W, b))
    i, f, g, o = _blocks(x_t, h_prev, W, b)
    c_t = _sigmoid(f) * c_prev + _sigmoid(i) * np.tanh(g)
    return (_sigmoid(o) * np.tanh(c_t)).astype(np.float64), c_t.astype(np.float64)
