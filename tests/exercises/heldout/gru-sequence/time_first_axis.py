"""Takes time as the first axis (xs[t]), wrong for batched (N, T, D)."""

import numpy as np

RIGHT_DIAGNOSES = ("time_axis_first",)


def _sigmoid(a: np.ndarray) -> np.ndarray:
    return np.exp(-np.logaddexp(0.0, -a))


def gru_sequence(xs: np.ndarray, h0: np.ndarray,
                 W_z: np.ndarray, b_z: np.ndarray,
                 W_r: np.ndarray, b_r: np.ndarray,
                 W_h: np.ndarray, b_h: np.ndarray) -> np.ndarray:
    T = xs.shape[0]
    h = np.asarray(h0, dtype=np.float64)
    states = []
    for t in range(T):
        x_t = xs[t]
        hx = np.concatenate([h, x_t], axis=-1)
        z = _sigmoid(hx @ W_z.T + b_z)
        r = _sigmoid(hx @ W_r.T + b_r)
        h_tilde = np.tanh(np.concatenate([r * h, x_t], axis=-1) @ W_h.T + b_h)
        h = z * h + (1 - z) * h_tilde
        states.append(h)
    return np.stack(states, axis=-2)
