"""Hand-written tanh (e^2a - 1) / (e^2a + 1): NaN (inf / inf) for large positive pre-activations."""

import numpy as np

RIGHT_DIAGNOSES = ("tanh_from_double_exponential",)


def my_tanh(a):
    e2 = np.exp(2 * a)
    return (e2 - 1) / (e2 + 1)


def candidate_state(x_t: np.ndarray, h_prev: np.ndarray, r_t: np.ndarray,
                    W_h: np.ndarray, b_h: np.ndarray) -> np.ndarray:
    v = np.concatenate([r_t * h_prev, x_t], axis=-1)
    return my_tanh(v @ W_h.T + b_h)
