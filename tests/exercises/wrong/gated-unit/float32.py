"""float32 arithmetic cast back to float64: errors compound over the steps."""

import numpy as np

RIGHT_DIAGNOSES = ("float32_arithmetic",)


def _sigmoid(z):
    return np.exp(-np.logaddexp(0.0, -z))


def gated_unit(x, h0, W_ux, W_uh, b_u, W_ax, W_ah, b_a):
    h, x = h0.astype(np.float32), x.astype(np.float32)
    params = (W_ux, W_uh, b_u, W_ax, W_ah, b_a)
    W_ux, W_uh, b_u, W_ax, W_ah, b_a = (p.astype(np.float32) for p in params)
    states = []
    for t in range(x.shape[-2]):
        x_t = x[..., t, :]
        u = _sigmoid(x_t @ W_ux.T + h @ W_uh.T + b_u)
        a = np.tanh(x_t @ W_ax.T + h @ W_ah.T + b_a)
        h = u * h + (1.0 - u) * a
        states.append(h)
    return np.stack(states, axis=-2).astype(np.float64)
