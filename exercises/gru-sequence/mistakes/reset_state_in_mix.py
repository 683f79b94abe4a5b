import numpy as np

HINT = ("The reset gate only decides what the candidate may look at; the final mix "
        "blends the candidate with the previous state as it was, untouched by the reset. "
        "Check which version of the old state your update uses (a variable overwritten on "
        "the way?).")


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def gru_sequence(xs, h0, W_z, b_z, W_r, b_r, W_h, b_h):
    h = h0
    states = []
    for t in range(xs.shape[-2]):
        hx = np.concatenate([h, xs[..., t, :]], axis=-1)
        z = _sigmoid(hx @ W_z.T + b_z)
        r = _sigmoid(hx @ W_r.T + b_r)
        h = r * h
        h_tilde = np.tanh(np.concatenate([h, xs[..., t, :]], axis=-1) @ W_h.T + b_h)
        h = z * h + (1.0 - z) * h_tilde
        states.append(h)
    return np.stack(states, axis=-2)
