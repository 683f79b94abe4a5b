import numpy as np

HINT = ("The first H columns of every weight matrix act on the hidden state and the last D "
        "columns on the input. Look at the order in which you join the two vectors before "
        "multiplying.")


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def _step(h, x, W_z, b_z, W_r, b_r, W_h, b_h):
    xh = np.concatenate([x, h], axis=-1)
    z = _sigmoid(xh @ W_z.T + b_z)
    r = _sigmoid(xh @ W_r.T + b_r)
    h_tilde = np.tanh(np.concatenate([x, r * h], axis=-1) @ W_h.T + b_h)
    return z * h + (1.0 - z) * h_tilde


def gru_sequence(xs, h0, W_z, b_z, W_r, b_r, W_h, b_h):
    h = h0
    states = []
    for t in range(xs.shape[-2]):
        h = _step(h, xs[..., t, :], W_z, b_z, W_r, b_r, W_h, b_h)
        states.append(h)
    return np.stack(states, axis=-2)
