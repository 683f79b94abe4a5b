"""float32 states cast back to float64."""

import numpy as np

RIGHT_DIAGNOSES = ("float32_arithmetic",)


def _sigmoid(z):
    return np.exp(-np.logaddexp(0.0, -z))


def _states(x, W_ux, W_uh, b_u, W_ax, W_ah, b_a, gated):
    N, T, _ = x.shape
    h = np.zeros((N, W_ah.shape[0]))
    out = np.empty((N, T, h.shape[1]), dtype=np.float32)
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
    weights = (W_ux, W_uh, b_u, W_ax, W_ah, b_a)
    params = (*(np.float32(p) for p in weights), bool(gated))
    h_marked = _states(np.asarray(x_marked, dtype=np.float32), *params)
    h_other = _states(np.asarray(x_other, dtype=np.float32), *params)
    trace = np.abs(h_marked - h_other).sum(axis=2).mean(axis=0)
    share = float(trace[-1] / trace[1])
    factor = float(share ** (1.0 / (trace.size - 2)))
    return trace.astype(np.float64), share, factor
