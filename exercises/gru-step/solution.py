import numpy as np


def _sigmoid(a: np.ndarray) -> np.ndarray:
    # sigma(a) = exp(-log(1 + exp(-a))): no overflow for any finite a.
    return np.exp(-np.logaddexp(0.0, -a))


def gru_step(x_t: np.ndarray, h_prev: np.ndarray,
             W_z: np.ndarray, b_z: np.ndarray,
             W_r: np.ndarray, b_r: np.ndarray,
             W_h: np.ndarray, b_h: np.ndarray) -> np.ndarray:
    """One GRU step on (H,)/(D,) or (N, H)/(N, D) inputs; returns h_t, (H,) or (N, H)."""
    hx = np.concatenate([h_prev, x_t], axis=-1)
    z = _sigmoid(hx @ W_z.T + b_z)
    r = _sigmoid(hx @ W_r.T + b_r)
    h_tilde = np.tanh(np.concatenate([r * h_prev, x_t], axis=-1) @ W_h.T + b_h)
    return z * h_prev + (1.0 - z) * h_tilde
