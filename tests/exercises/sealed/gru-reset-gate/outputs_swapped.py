"""Returns the pair in the wrong order, (reset_state, r_t) instead of (r_t, reset_state)."""

import numpy as np

RIGHT_DIAGNOSES = ("outputs_swapped",)


def sigmoid(a: np.ndarray) -> np.ndarray:
    return np.exp(-np.logaddexp(0.0, -a))


def reset_gate(x_t: np.ndarray, h_prev: np.ndarray,
               W_r: np.ndarray, b_r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    joined = np.concatenate([h_prev, x_t], axis=-1)
    r_t = sigmoid(joined @ W_r.T + b_r)
    reset_state = r_t * h_prev
    return reset_state, r_t
