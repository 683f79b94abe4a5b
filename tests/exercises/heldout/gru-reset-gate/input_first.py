"""Concatenates [x_t, h_prev] (input first) before applying W_r."""

import numpy as np

RIGHT_DIAGNOSES = ("input_first",)


def reset_gate(x_t: np.ndarray, h_prev: np.ndarray,
               W_r: np.ndarray, b_r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    xh = np.concatenate([x_t, h_prev], axis=-1)
    r_t = np.exp(-np.logaddexp(0.0, -(xh @ W_r.T + b_r)))
    return r_t, r_t * h_prev
