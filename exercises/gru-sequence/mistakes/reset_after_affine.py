import numpy as np

HINT = ("Close, but the reset gate acts at the wrong place. In this course's GRU (Cho et al.) "
        "the gate scales the previous state itself, unit by unit, before any weight sees it; "
        "scaling the product W_hh h_{t-1} afterwards is a different function (it is the "
        "variant used by cuDNN and PyTorch).")


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def _step(h, x, W_z, b_z, W_r, b_r, W_h, b_h):
    H = h.shape[-1]
    hx = np.concatenate([h, x], axis=-1)
    z = _sigmoid(hx @ W_z.T + b_z)
    r = _sigmoid(hx @ W_r.T + b_r)
    h_tilde = np.tanh(x @ W_h[:, H:].T + r * (h @ W_h[:, :H].T) + b_h)
    return z * h + (1.0 - z) * h_tilde


def gru_sequence(xs, h0, W_z, b_z, W_r, b_r, W_h, b_h):
    h = h0
    states = []
    for t in range(xs.shape[-2]):
        h = _step(h, xs[..., t, :], W_z, b_z, W_r, b_r, W_h, b_h)
        states.append(h)
    return np.stack(states, axis=-2)
