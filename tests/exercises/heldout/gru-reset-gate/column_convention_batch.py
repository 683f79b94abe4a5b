"""Uses column vectors, W_r @ joined.T, so a batched result comes back as (H, N)."""

import numpy as np

RIGHT_DIAGNOSES = ("permute_output",)


def reset_gate(x_t: np.ndarray, h_prev: np.ndarray,
               W_r: np.ndarray, b_r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    joined = np.concatenate([h_prev, x_t], axis=-1)
    q = W_r @ joined + b_r if joined.ndim == 1 else W_r @ joined.T + b_r[:, None]
    r_t = np.exp(-np.logaddexp(0.0, -q))
    reset_state = r_t * (h_prev if h_prev.ndim == 1 else h_prev.T)
    return r_t, reset_state
