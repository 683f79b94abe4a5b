"""Uses the sigmoid instead of tanh for the candidate, so it can never be negative."""

import numpy as np

RIGHT_DIAGNOSES = ("sigmoid_activation",)


def candidate_state(x_t: np.ndarray, h_prev: np.ndarray, r_t: np.ndarray,
                    W_h: np.ndarray, b_h: np.ndarray) -> np.ndarray:
    joined = np.concatenate([r_t * h_prev, x_t], axis=-1)
    q = joined @ W_h.T + b_h
    return np.exp(-np.logaddexp(0.0, -q))
