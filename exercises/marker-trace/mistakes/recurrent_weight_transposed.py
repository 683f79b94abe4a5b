"""h @ W_uh and h @ W_ah instead of their transposes."""

import numpy as np

HINT = ("Row k of a recurrent matrix holds the weights that unit k reads from every unit of "
        "h_{t-1}. With a batch of row vectors h, is that h @ W or h @ W.T? A square matrix "
        "will not warn you with a shape error.")


def _sigmoid(z: np.ndarray) -> np.ndarray:
    # exp(-log(1 + exp(-z))) never overflows, for any finite z.
    return np.exp(-np.logaddexp(0.0, -z))


def _states(x, W_ux, W_uh, b_u, W_ax, W_ah, b_a, gated):
    """All states h_1..h_T of every sequence, shape (N, T, H), from h_0 = 0."""
    N, T, _ = x.shape
    h = np.zeros((N, W_ah.shape[0]))
    out = np.empty((N, T, h.shape[1]))
    for t in range(T):
        x_t = x[:, t, :]
        a = np.tanh(x_t @ W_ax.T + h @ W_ah + b_a)
        if gated:
            u = _sigmoid(x_t @ W_ux.T + h @ W_uh + b_u)
            h = u * h + (1.0 - u) * a
        else:
            h = a
        out[:, t, :] = h
    return out


def marker_trace(x_marked, x_other, W_ux, W_uh, b_u, W_ax, W_ah, b_a, gated):
    """The marker's trace at every length, the share left at length T, the per-step factor."""
    params = (W_ux, W_uh, b_u, W_ax, W_ah, b_a, bool(gated))
    h_marked = _states(np.asarray(x_marked, dtype=np.float64), *params)
    h_other = _states(np.asarray(x_other, dtype=np.float64), *params)
    # L1 distance between the two last states, averaged over the sequences, for every length
    trace = np.abs(h_marked - h_other).sum(axis=2).mean(axis=0)
    share = float(trace[-1] / trace[1])
    factor = float(share ** (1.0 / (trace.size - 2)))
    return trace, share, factor
