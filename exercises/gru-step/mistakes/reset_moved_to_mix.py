"""Reset gate moved from the candidate to the final mix: the candidate reads h_{t-1} as it
is, and the mix keeps z * (r * h_{t-1})."""

import numpy as np

HINT = ("Your reset gate acts in the wrong place. It filters the old state the candidate "
        "reads, before the candidate's matrix product; the final mix then blends the "
        "candidate with the previous state as it was. Check where r multiplies h_{t-1}.")


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def gru_step(x_t, h_prev, W_z, b_z, W_r, b_r, W_h, b_h):
    hx = np.concatenate([h_prev, x_t], axis=-1)
    z = _sigmoid(hx @ W_z.T + b_z)
    r = _sigmoid(hx @ W_r.T + b_r)
    h_tilde = np.tanh(hx @ W_h.T + b_h)
    return z * r * h_prev + (1.0 - z) * h_tilde
