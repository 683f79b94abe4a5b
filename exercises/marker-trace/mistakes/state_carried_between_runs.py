"""The second run starts from the first run's last state instead of from zeros."""

import numpy as np

HINT = ("Your second run does not start where the first did: it carries on from the first "
        "run's last state. Both sequences must start from the same zero state, so that the "
        "marker is the only difference between them.")


def _sigmoid(z: np.ndarray) -> np.ndarray:
    # exp(-log(1 + exp(-z))) never overflows, for any finite z.
    return np.exp(-np.logaddexp(0.0, -z))


def _states(x, h, W_ux, W_uh, b_u, W_ax, W_ah, b_a, gated):
    """All states h_1..h_T of every sequence, shape (N, T, H), from h."""
    N, T, _ = x.shape
    out = np.empty((N, T, h.shape[1]))
    for t in range(T):
        x_t = x[:, t, :]
        a = np.tanh(x_t @ W_ax.T + h @ W_ah.T + b_a)
        if gated:
            u = _sigmoid(x_t @ W_ux.T + h @ W_uh.T + b_u)
            h = u * h + (1.0 - u) * a
        else:
            h = a
        out[:, t, :] = h
    return out, h


def marker_trace(x_marked, x_other, W_ux, W_uh, b_u, W_ax, W_ah, b_a, gated):
    """The marker's trace at every length, the share left at length T, the per-step factor."""
    params = (W_ux, W_uh, b_u, W_ax, W_ah, b_a, bool(gated))
    x_marked = np.asarray(x_marked, dtype=np.float64)
    h = np.zeros((x_marked.shape[0], W_ah.shape[0]))
    h_marked, h = _states(x_marked, h, *params)
    h_other, h = _states(np.asarray(x_other, dtype=np.float64), h, *params)
    # L1 distance between the two last states, averaged over the sequences, for every length
    trace = np.abs(h_marked - h_other).sum(axis=2).mean(axis=0)
    share = float(trace[-1] / trace[1])
    factor = float(share ** (1.0 / (trace.size - 2)))
    return trace, share, factor
