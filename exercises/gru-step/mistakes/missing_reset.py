import numpy as np

HINT = ("Your candidate state sees the whole previous state. The reset gate is computed "
        "for a reason: it decides, unit by unit, how much of h_prev the candidate is "
        "allowed to use. Where does r enter the computation of the candidate?")


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def gru_step(x_t, h_prev, W_z, b_z, W_r, b_r, W_h, b_h):
    hx = np.concatenate([h_prev, x_t], axis=-1)
    z = _sigmoid(hx @ W_z.T + b_z)
    h_tilde = np.tanh(hx @ W_h.T + b_h)
    return z * h_prev + (1.0 - z) * h_tilde
