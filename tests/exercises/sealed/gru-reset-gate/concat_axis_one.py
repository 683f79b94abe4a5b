"""Concatenates along axis=1, which only exists for a batch: unbatched (1-D) inputs raise."""

import numpy as np

RIGHT_DIAGNOSES = ("axis",)


def reset_gate(x_t: np.ndarray, h_prev: np.ndarray,
               W_r: np.ndarray, b_r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    stacked = np.concatenate((h_prev, x_t), axis=1)
    gate = np.exp(-np.logaddexp(0.0, -(stacked @ W_r.T + b_r)))
    return gate, gate * h_prev
