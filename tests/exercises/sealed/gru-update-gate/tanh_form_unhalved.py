"""Sigmoid via tanh as 0.5 * (1 + tanh(q)), missing the halving: it should be tanh(q / 2)."""

import numpy as np


def update_gate(x_t: np.ndarray, h_prev: np.ndarray,
                W_z: np.ndarray, b_z: np.ndarray) -> np.ndarray:
    concat = np.concatenate([h_prev, x_t], axis=-1).astype(np.float64)
    z = concat @ W_z.T + b_z
    # tanh never overflows, so this form of the sigmoid is stable
    return 0.5 * (1.0 + np.tanh(z))
