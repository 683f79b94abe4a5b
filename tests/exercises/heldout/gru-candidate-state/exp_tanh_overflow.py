"""tanh written as (e^{2q} - 1) / (e^{2q} + 1): NaN once e^{2q} overflows."""

import numpy as np

RIGHT_DIAGNOSES = ("tanh_from_double_exponential",)


def my_tanh(q: np.ndarray) -> np.ndarray:
    e = np.exp(2.0 * q)
    return (e - 1.0) / (e + 1.0)


def candidate_state(x_t: np.ndarray, h_prev: np.ndarray, r_t: np.ndarray,
                    W_h: np.ndarray, b_h: np.ndarray) -> np.ndarray:
    joined = np.concatenate([r_t * h_prev, x_t], axis=-1)
    return my_tanh(joined @ W_h.T + b_h)
