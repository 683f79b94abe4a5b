"""Clips the pre-activation to [-15, 15] before the sigmoid: gates wrong for large magnitudes."""

import numpy as np

RIGHT_DIAGNOSES = ("clipped_preactivation",)


def update_gate(x_t: np.ndarray, h_prev: np.ndarray,
                W_z: np.ndarray, b_z: np.ndarray) -> np.ndarray:
    H = h_prev.shape[-1]
    pre = h_prev @ W_z[:, :H].T + x_t @ W_z[:, H:].T + b_z
    pre = np.clip(pre, -15.0, 15.0)  # keep exp from overflowing
    return 1.0 / (1.0 + np.exp(-pre))
