"""Updates the state in place (h *= z; h += ...): h0 is overwritten and all stored rows alias h."""

import numpy as np

RIGHT_DIAGNOSES = ("same_array_appended",)


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def gru_sequence(xs: np.ndarray, h0: np.ndarray,
                 W_z: np.ndarray, b_z: np.ndarray,
                 W_r: np.ndarray, b_r: np.ndarray,
                 W_h: np.ndarray, b_h: np.ndarray) -> np.ndarray:
    H = h0.shape[-1]
    h = h0
    states = []
    for x in np.moveaxis(xs, -2, 0):
        z = _sigmoid(h @ W_z[:, :H].T + x @ W_z[:, H:].T + b_z)
        r = _sigmoid(h @ W_r[:, :H].T + x @ W_r[:, H:].T + b_r)
        cand = np.tanh((r * h) @ W_h[:, :H].T + x @ W_h[:, H:].T + b_h)
        h *= z
        h += (1 - z) * cand
        states.append(h)
    return np.stack(states, axis=-2)
