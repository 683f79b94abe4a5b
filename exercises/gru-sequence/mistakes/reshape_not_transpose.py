"""W.reshape(H + D, H) instead of W.T."""

import numpy as np

HINT = ("Your shapes fit but the values do not. Reshaping a (H, H + D) matrix to (H + D, H) "
        "keeps the entries in reading order, so they land in other rows and columns than a "
        "transpose would put them: row k of each weight matrix must still be the weights of "
        "unit k.")


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def _step(h, x, W_z, b_z, W_r, b_r, W_h, b_h):
    H, K = W_z.shape
    hx = np.concatenate([h, x], axis=-1)
    z = _sigmoid(hx @ W_z.reshape(K, H) + b_z)
    r = _sigmoid(hx @ W_r.reshape(K, H) + b_r)
    h_tilde = np.tanh(np.concatenate([r * h, x], axis=-1) @ W_h.reshape(K, H) + b_h)
    return z * h + (1.0 - z) * h_tilde


def gru_sequence(xs, h0, W_z, b_z, W_r, b_r, W_h, b_h):
    h = h0
    states = []
    for t in range(xs.shape[-2]):
        h = _step(h, xs[..., t, :], W_z, b_z, W_r, b_r, W_h, b_h)
        states.append(h)
    return np.stack(states, axis=-2)
