"""Resets the state in place (h_prev *= r_t), overwriting the caller's h_prev array."""

import numpy as np

RIGHT_DIAGNOSES = ("changed_input",)


def candidate_state(x_t: np.ndarray, h_prev: np.ndarray, r_t: np.ndarray,
                    W_h: np.ndarray, b_h: np.ndarray) -> np.ndarray:
    h_prev *= r_t
    inp = np.concatenate([h_prev, x_t], axis=-1)
    out = inp @ W_h.T
    out += b_h
    return np.tanh(out)
