"""The recurrent weights of the two blocks exchanged: the gate reads W_ah, the candidate W_uh."""

import numpy as np

HINT = ("Your gate and candidate each read the other block's recurrent weights. Every block "
        "has its own pair of matrices, one for the input and one for the state: check that "
        "the gate's state term uses the gate's matrix and the candidate's uses the "
        "candidate's.")


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
        a = np.tanh(x_t @ W_ax.T + h @ W_uh.T + b_a)
        if gated:
            u = _sigmoid(x_t @ W_ux.T + h @ W_ah.T + b_u)
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
