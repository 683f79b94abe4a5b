"""Reference solution: the GRU reset gate and the reset state the candidate will see."""

import numpy as np


def sigmoid(a: np.ndarray) -> np.ndarray:
    """Logistic function that never overflows: 1 / (1 + e^-a) = exp(-log(1 + e^-a))."""
    return np.exp(-np.logaddexp(0.0, -a))


def reset_gate(x_t: np.ndarray, h_prev: np.ndarray,
               W_r: np.ndarray, b_r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return (r_t, r_t * h_prev), unbatched (H,) or batched (N, H) each."""
    joined = np.concatenate([h_prev, x_t], axis=-1).astype(np.float64)   # (..., H + D)
    r_t = sigmoid(joined @ W_r.T + b_r)                                    # (..., H)
    return r_t, r_t * h_prev
