"""Uses tanh instead of the sigmoid as the gate nonlinearity."""

import numpy as np

RIGHT_DIAGNOSES = ("tanh_gate",)


def update_gate(x_t: np.ndarray, h_prev: np.ndarray,
                W_z: np.ndarray, b_z: np.ndarray) -> np.ndarray:
    H = h_prev.shape[-1]
    U = W_z[:, :H]
    W = W_z[:, H:]
    q = h_prev @ U.T + x_t @ W.T + b_z
    return np.tanh(q)
