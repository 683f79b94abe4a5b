"""Reference solution: the GRU candidate state tanh(W_h [r_t * h_{t-1}, x_t] + b_h)."""

import numpy as np


def candidate_state(x_t: np.ndarray, h_prev: np.ndarray, r_t: np.ndarray,
                    W_h: np.ndarray, b_h: np.ndarray) -> np.ndarray:
    """Candidate state of a GRU for one step, unbatched (H,) or batched (N, H)."""
    joined = np.concatenate([r_t * h_prev, x_t], axis=-1).astype(np.float64)   # (..., H + D)
    return np.tanh(joined @ W_h.T + b_h)                                          # (..., H)
