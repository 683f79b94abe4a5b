"""Gates the previous state with 1 - r_t, as in the update mix, instead of with r_t."""

import numpy as np

RIGHT_DIAGNOSES = ("inverted_reset",)


def _sigmoid(q):
    return np.exp(-np.logaddexp(0, -q))


def reset_gate(x_t: np.ndarray, h_prev: np.ndarray,
               W_r: np.ndarray, b_r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    H = h_prev.shape[-1]
    q = h_prev @ W_r[:, :H].T + x_t @ W_r[:, H:].T + b_r
    r_t = _sigmoid(q)
    reset_state = (1 - r_t) * h_prev
    return r_t, reset_state
