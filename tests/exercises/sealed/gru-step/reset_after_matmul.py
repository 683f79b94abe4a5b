"""Resets after the recurrent product, r * (U_h h_prev), instead of resetting h_prev first."""

import numpy as np

RIGHT_DIAGNOSES = ("reset_after_affine",)


def stable_sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def gru_step(x_t: np.ndarray, h_prev: np.ndarray,
             W_z: np.ndarray, b_z: np.ndarray,
             W_r: np.ndarray, b_r: np.ndarray,
             W_h: np.ndarray, b_h: np.ndarray) -> np.ndarray:
    H = h_prev.shape[-1]
    Uz, Wz = W_z[:, :H], W_z[:, H:]
    Ur, Wr = W_r[:, :H], W_r[:, H:]
    Uh, Wh = W_h[:, :H], W_h[:, H:]
    z = stable_sigmoid(h_prev @ Uz.T + x_t @ Wz.T + b_z)
    r = stable_sigmoid(h_prev @ Ur.T + x_t @ Wr.T + b_r)
    h_hat = np.tanh(r * (h_prev @ Uh.T) + x_t @ Wh.T + b_h)
    return z * h_prev + (1 - z) * h_hat
