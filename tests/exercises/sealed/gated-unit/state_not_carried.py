"""Never reassigns the state: every step reads h0 instead of the previous step's h_t."""

import numpy as np

RIGHT_DIAGNOSES = ("state_not_carried",)


def _sigmoid(q):
    return np.exp(-np.logaddexp(0.0, -q))


def gated_unit(x: np.ndarray, h0: np.ndarray,
               W_ux: np.ndarray, W_uh: np.ndarray, b_u: np.ndarray,
               W_ax: np.ndarray, W_ah: np.ndarray, b_a: np.ndarray) -> np.ndarray:
    T = x.shape[-2]
    H = h0.shape[-1]
    h_prev = np.asarray(h0, dtype=np.float64)
    result = np.zeros((*x.shape[:-2], T, H))
    for t in range(T):
        x_t = x[..., t, :]
        gate = _sigmoid(x_t @ W_ux.T + h_prev @ W_uh.T + b_u)
        cand = np.tanh(x_t @ W_ax.T + h_prev @ W_ah.T + b_a)
        h_new = gate * h_prev + (1 - gate) * cand
        result[..., t, :] = h_new
    return result
