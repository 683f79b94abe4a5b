"""Takes time as the first axis (for x_t in x), as in the GRU sequence: a batch is walked by row."""

import numpy as np

RIGHT_DIAGNOSES = ("time_axis_first",)


def _sigmoid(q):
    return np.exp(-np.logaddexp(0.0, -q))


def gated_unit(x: np.ndarray, h0: np.ndarray,
               W_ux: np.ndarray, W_uh: np.ndarray, b_u: np.ndarray,
               W_ax: np.ndarray, W_ah: np.ndarray, b_a: np.ndarray) -> np.ndarray:
    h = np.asarray(h0, dtype=np.float64)
    states = []
    for x_t in x:
        u = _sigmoid(x_t @ W_ux.T + h @ W_uh.T + b_u)
        a = np.tanh(x_t @ W_ax.T + h @ W_ah.T + b_a)
        h = u * h + (1.0 - u) * a
        states.append(h)
    return np.array(states)
