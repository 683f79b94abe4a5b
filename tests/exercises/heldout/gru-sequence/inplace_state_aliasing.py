"""Updates h in place and appends the same array, so every row ends up equal to h_T."""

import numpy as np

RIGHT_DIAGNOSES = ("same_array_appended",)


def _sigmoid(a: np.ndarray) -> np.ndarray:
    return np.exp(-np.logaddexp(0.0, -a))


def gru_sequence(xs: np.ndarray, h0: np.ndarray,
                 W_z: np.ndarray, b_z: np.ndarray,
                 W_r: np.ndarray, b_r: np.ndarray,
                 W_h: np.ndarray, b_h: np.ndarray) -> np.ndarray:
    h = h0.astype(np.float64)  # a copy, so h0 itself stays untouched
    states = []
    for x in np.moveaxis(xs, -2, 0):
        hx = np.concatenate([h, x], axis=-1)
        z = _sigmoid(hx @ W_z.T + b_z)
        r = _sigmoid(hx @ W_r.T + b_r)
        h_tilde = np.tanh(np.concatenate([r * h, x], axis=-1) @ W_h.T + b_h)
        h[...] = z * h + (1 - z) * h_tilde
        states.append(h)
    return np.stack(states, axis=-2)
