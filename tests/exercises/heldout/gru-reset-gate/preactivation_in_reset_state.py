"""Multiplies h_prev by the gate's pre-activation (before the sigmoid) to form the reset state."""

import numpy as np

RIGHT_DIAGNOSES = ("reset_on_preactivation",)


def reset_gate(x_t: np.ndarray, h_prev: np.ndarray,
               W_r: np.ndarray, b_r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    joined = np.concatenate([h_prev, x_t], axis=-1)
    r = joined @ W_r.T + b_r
    r_t = np.exp(-np.logaddexp(0.0, -r))
    reset_state = r * h_prev
    return r_t, reset_state
