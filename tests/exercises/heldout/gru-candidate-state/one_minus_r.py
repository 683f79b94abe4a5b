"""Gates the previous state with 1 - r_t instead of r_t."""

import numpy as np

RIGHT_DIAGNOSES = ("inverted_reset",)


def candidate_state(x_t: np.ndarray, h_prev: np.ndarray, r_t: np.ndarray,
                    W_h: np.ndarray, b_h: np.ndarray) -> np.ndarray:
    reset = (1 - r_t) * h_prev
    joined = np.concatenate([reset, x_t], axis=-1)
    return np.tanh(joined @ W_h.T + b_h)
