"""Copy-paste slip: the candidate's input term uses W_ux instead of W_ax."""

import numpy as np

RIGHT_DIAGNOSES = ("replace_parameter",)


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return np.exp(-np.logaddexp(0.0, -z))


def _block(x_t: np.ndarray, h: np.ndarray, W_x: np.ndarray, W_h: np.ndarray,
           b: np.ndarray) -> np.ndarray:
    return x_t @ W_x.T + h @ W_h.T + b


def gated_unit(x: np.ndarray, h0: np.ndarray,
               W_ux: np.ndarray, W_uh: np.ndarray, b_u: np.ndarray,
               W_ax: np.ndarray, W_ah: np.ndarray, b_a: np.ndarray) -> np.ndarray:
    T = x.shape[-2]
    h = np.asarray(h0, dtype=np.float64)
    states = np.empty((*x.shape[:-1], h.shape[-1]))
    for t in range(T):
        x_t = x[..., t, :]
        u = _sigmoid(_block(x_t, h, W_ux, W_uh, b_u))
        a = np.tanh(_block(x_t, h, W_ux, W_ah, b_a))
        h = u * h + (1.0 - u) * a
        states[..., t, :] = h
    return states
