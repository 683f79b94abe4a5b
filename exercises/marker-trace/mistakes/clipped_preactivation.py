"""Gate pre-activation clipped to [-15, 15] before the sigmoid, to keep exp from overflowing."""

import numpy as np

HINT = ("Your trace is right except where the gate saturates: there it stops short of 0 or 1 "
        "by more than the tolerance. Clipping the pre-activation (or the gate) to a narrow "
        "range avoids the overflow but changes the value; write a sigmoid that is exact for "
        "every z instead: np.exp(-np.logaddexp(0, -z)), or split on the sign without an "
        "overflowing branch, e = np.exp(-np.abs(z)) and np.where(z >= 0, 1, e) / (1 + e).")


def _sigmoid(z: np.ndarray) -> np.ndarray:
    z = np.clip(z, -15.0, 15.0)  # keeps exp(-z) from overflowing
    return 1.0 / (1.0 + np.exp(-z))


def _states(x, W_ux, W_uh, b_u, W_ax, W_ah, b_a, gated):
    """All states h_1..h_T of every sequence, shape (N, T, H), from h_0 = 0."""
    N, T, _ = x.shape
    h = np.zeros((N, W_ah.shape[0]))
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
