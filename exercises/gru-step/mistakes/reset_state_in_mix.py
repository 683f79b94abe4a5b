import numpy as np

HINT = ("The reset gate only decides what the candidate may look at; the final mix "
        "blends the candidate with the previous state as it was, untouched by the reset. "
        "Check which version of the old state your last line uses (a variable overwritten "
        "on the way?).")


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def gru_step(x_t, h_prev, W_z, b_z, W_r, b_r, W_h, b_h):
    hx = np.concatenate([h_prev, x_t], axis=-1)
    z = _sigmoid(hx @ W_z.T + b_z)
    r = _sigmoid(hx @ W_r.T + b_r)
    h = r * h_prev
    h_tilde = np.tanh(np.concatenate([h, x_t], axis=-1) @ W_h.T + b_h)
    return z * h + (1.0 - z) * h_tilde
