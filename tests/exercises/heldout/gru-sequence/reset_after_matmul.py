"""Applies the reset gate after the product: r_t * (U_h h_{t-1}) instead of U_h (r_t * h_{t-1})."""

import numpy as np

RIGHT_DIAGNOSES = ("reset_after_affine",)


def _sigmoid(a: np.ndarray) -> np.ndarray:
    return np.exp(-np.logaddexp(0.0, -a))


def gru_sequence(xs: np.ndarray, h0: np.ndarray,
                 W_z: np.ndarray, b_z: np.ndarray,
                 W_r: np.ndarray, b_r: np.ndarray,
                 W_h: np.ndarray, b_h: np.ndarray) -> np.ndarray:
    H = h0.shape[-1]
    U_z, V_z = W_z[:, :H], W_z[:, H:]
    U_r, V_r = W_r[:, :H], W_r[:, H:]
    U_h, V_h = W_h[:, :H], W_h[:, H:]
    h = np.array(h0, dtype=np.float64)
    states = np.empty((*xs.shape[:-1], H))
    for t in range(xs.shape[-2]):
        x = xs[..., t, :]
        z = _sigmoid(h @ U_z.T + x @ V_z.T + b_z)
        r = _sigmoid(h @ U_r.T + x @ V_r.T + b_r)
        h_tilde = np.tanh(r * (h @ U_h.T) + x @ V_h.T + b_h)
        h = z * h + (1 - z) * h_tilde
        states[..., t, :] = h
    return states
