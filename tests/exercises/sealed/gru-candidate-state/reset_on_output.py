"""Multiplies the tanh output by r_t instead of resetting h_prev before the affine map."""

import numpy as np

RIGHT_DIAGNOSES = ("reset_on_result",)


def candidate_state(x_t: np.ndarray, h_prev: np.ndarray, r_t: np.ndarray,
                    W_h: np.ndarray, b_h: np.ndarray) -> np.ndarray:
    joined = np.concatenate([h_prev, x_t], axis=-1)
    h_tilde = np.tanh(joined @ W_h.T + b_h)
    return r_t * h_tilde
