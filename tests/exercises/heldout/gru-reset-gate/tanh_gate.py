"""Uses tanh instead of the sigmoid for the reset gate, so r_t can be negative."""

import numpy as np

RIGHT_DIAGNOSES = ("tanh_gate",)


def reset_gate(x_t: np.ndarray, h_prev: np.ndarray,
               W_r: np.ndarray, b_r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    joined = np.concatenate([h_prev, x_t], axis=-1)
    r_t = np.tanh(joined @ W_r.T + b_r)
    return r_t, r_t * h_prev
