"""Gate pre-activation clipped to [-15, 15] before the sigmoid, to keep exp from overflowing."""

import numpy as np

HINT = ("Your gradients are off only where the gate saturates: there your gate stops short of "
        "0 or 1 by more than the tolerance. Clipping the pre-activation (or the gate) to a "
        "narrow range avoids the overflow but changes the value; write a sigmoid that is exact "
        "for every z instead: np.exp(-np.logaddexp(0, -z)), or split on the sign without an "
        "overflowing branch, e = np.exp(-np.abs(z)) and np.where(z >= 0, 1, e) / (1 + e).")


def _sigmoid(z):
    return 1.0 / (1.0 + np.exp(-np.clip(z, -15.0, 15.0)))


def gated_unit_bptt(x, h0, W_ux, W_uh, b_u, W_ax, W_ah, b_a, y):
    """Gradients of L = 1/2 * sum((h_t - y_t)**2) over every step (and row) of the gated unit.

    Returns (dh0, dW_ux, dW_uh, db_u, dW_ax, dW_ah, db_a).
    """
    x = np.asarray(x, dtype=np.float64)
    h = np.asarray(h0, dtype=np.float64)
    T = x.shape[-2]

    # forward pass, keeping what the backward pass needs
    prev, gates, cands, states = [], [], [], []
    for t in range(T):
        x_t = x[..., t, :]
        u = _sigmoid(x_t @ W_ux.T + h @ W_uh.T + b_u)
        a = np.tanh(x_t @ W_ax.T + h @ W_ah.T + b_a)
        prev.append(h)
        h = u * h + (1.0 - u) * a
        gates.append(u)
        cands.append(a)
        states.append(h)

    def outer_sum(g, v):
        # the outer products g v^T, summed over every leading (batch) axis
        return g.reshape(-1, g.shape[-1]).T @ v.reshape(-1, v.shape[-1])

    dW_ux, dW_uh, db_u = np.zeros_like(W_ux), np.zeros_like(W_uh), np.zeros_like(b_u)
    dW_ax, dW_ah, db_a = np.zeros_like(W_ax), np.zeros_like(W_ah), np.zeros_like(b_a)
    dh = np.zeros_like(h)  # dL/dh_t coming from the later steps
    for t in range(T - 1, -1, -1):
        u, a, h_prev, x_t = gates[t], cands[t], prev[t], x[..., t, :]
        dh = dh + (states[t] - y[..., t, :])          # the loss term of step t itself
        dz_u = dh * (h_prev - a) * u * (1.0 - u)      # through u_t (it multiplies h and -a)
        dz_a = dh * (1.0 - u) * (1.0 - a * a)         # through a_t
        dW_ux += outer_sum(dz_u, x_t)
        dW_uh += outer_sum(dz_u, h_prev)
        db_u += dz_u.reshape(-1, dz_u.shape[-1]).sum(axis=0)
        dW_ax += outer_sum(dz_a, x_t)
        dW_ah += outer_sum(dz_a, h_prev)
        db_a += dz_a.reshape(-1, dz_a.shape[-1]).sum(axis=0)
        # to h_{t-1}: the direct path u_t * h_{t-1}, and through both pre-activations
        dh = u * dh + dz_u @ W_uh + dz_a @ W_ah
    return dh, dW_ux, dW_uh, db_u, dW_ax, dW_ah, db_a
