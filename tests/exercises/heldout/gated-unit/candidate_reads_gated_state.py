"""Sets h = u_t * h before the candidate, so a_t reads u_t * h_{t-1} instead of h_{t-1}."""

import numpy as np

RIGHT_DIAGNOSES = ("candidate_reads_gated_state",)


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return np.exp(-np.logaddexp(0.0, -z))


def gated_unit(x: np.ndarray, h0: np.ndarray,
               W_ux: np.ndarray, W_uh: np.ndarray, b_u: np.ndarray,
               W_ax: np.ndarray, W_ah: np.ndarray, b_a: np.ndarray) -> np.ndarray:
    T = x.shape[-2]
    h = np.asarray(h0, dtype=np.float64)
    states = np.empty((*x.shape[:-1], h.shape[-1]))
    for t in range(T):
        x_t = x[..., t, :]
        u = _sigmoid(x_t @ W_ux.T + h @ W_uh.T + b_u)
        h = u * h
        a = np.tanh(x_t @ W_ax.T + h @ W_ah.T + b_a)
        h = h + (1.0 - u) * a
        states[..., t, :] = h
    return states
