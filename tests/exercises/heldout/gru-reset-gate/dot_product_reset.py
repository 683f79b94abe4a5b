"""Computes the reset state as np.dot(r_t, h_prev), a dot product, not element-wise."""

import numpy as np

RIGHT_DIAGNOSES = ("reset_state_dot_product",)


def reset_gate(x_t: np.ndarray, h_prev: np.ndarray,
               W_r: np.ndarray, b_r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    joined = np.concatenate([h_prev, x_t], axis=-1)
    r_t = np.exp(-np.logaddexp(0.0, -(joined @ W_r.T + b_r)))
    reset_state = np.dot(r_t, h_prev)
    return r_t, reset_state
