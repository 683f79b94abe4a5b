"""Sigmoid written 1 / (1 + exp(q)), without the minus sign, so r_t is sigma(-q)."""

import numpy as np

RIGHT_DIAGNOSES = ("inverted_gate",)


def reset_gate(x_t: np.ndarray, h_prev: np.ndarray,
               W_r: np.ndarray, b_r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    hx = np.concatenate([h_prev, x_t], axis=-1)
    q = np.clip(hx @ W_r.T + b_r, -500, 500)
    r_t = 1 / (1 + np.exp(q))
    return r_t, r_t * h_prev
