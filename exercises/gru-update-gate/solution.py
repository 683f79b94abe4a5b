"""Reference solution: the GRU update gate z_t = sigmoid(W_z [h_{t-1}, x_t] + b_z)."""

import numpy as np


def sigmoid(a: np.ndarray) -> np.ndarray:
    """Logistic function that never overflows: 1 / (1 + e^-a) = exp(-log(1 + e^-a))."""
    return np.exp(-np.logaddexp(0.0, -a))


def update_gate(x_t: np.ndarray, h_prev: np.ndarray,
                W_z: np.ndarray, b_z: np.ndarray) -> np.ndarray:
    """Update gate of a GRU for one time step, unbatched (H,) or batched (N, H)."""
    joined = np.concatenate([h_prev, x_t], axis=-1).astype(np.float64)   # (..., H + D)
    return sigmoid(joined @ W_z.T + b_z)                                   # (..., H)
