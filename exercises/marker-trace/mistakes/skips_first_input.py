"""Off by one: the loop starts at the second input, so the marker never enters and T - 1
states come back."""

import numpy as np

HINT = ("Your states are computed from the second input on: x_1 (index 0), where the marker "
        "sits, never enters. The first state h_1 comes from h_0 and x_1, and a sequence of T "
        "inputs gives T states. Check where your loop starts.")


def _sigmoid(z: np.ndarray) -> np.ndarray:
    # exp(-log(1 + exp(-z))) never overflows, for any finite z.
    return np.exp(-np.logaddexp(0.0, -z))


def _states(x, W_ux, W_uh, b_u, W_ax, W_ah, b_a, gated):
    """All states h_1..h_T of every sequence, shape (N, T, H), from h_0 = 0."""
    N, T, _ = x.shape
    h = np.zeros((N, W_ah.shape[0]))
    out = []
    for t in range(1, T):
        x_t = x[:, t, :]
        a = np.tanh(x_t @ W_ax.T + h @ W_ah.T + b_a)
        if gated:
            u = _sigmoid(x_t @ W_ux.T + h @ W_uh.T + b_u)
            h = u * h + (1.0 - u) * a
        else:
            h = a
        out.append(h)
    return np.stack(out, axis=1)


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
