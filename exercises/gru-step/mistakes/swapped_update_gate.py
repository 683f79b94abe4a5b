import numpy as np

HINT = ("Your new state leans towards the candidate exactly where it should keep the old "
        "state. In this convention a gate value z close to 1 means 'keep h_prev'. Which of "
        "z and 1 - z should multiply the previous state?")


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def gru_step(x_t, h_prev, W_z, b_z, W_r, b_r, W_h, b_h):
    hx = np.concatenate([h_prev, x_t], axis=-1)
    z = _sigmoid(hx @ W_z.T + b_z)
    r = _sigmoid(hx @ W_r.T + b_r)
    h_tilde = np.tanh(np.concatenate([r * h_prev, x_t], axis=-1) @ W_h.T + b_h)
    return (1.0 - z) * h_prev + z * h_tilde
