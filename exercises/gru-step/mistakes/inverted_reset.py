import numpy as np

HINT = ("In Cho et al.'s GRU, r is the share of the previous state the candidate is allowed "
        "to SEE: r near 1 keeps the memory visible, r near 0 hides it. Which factor should "
        "multiply h_prev before the candidate's weights see it?")


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def gru_step(x_t, h_prev, W_z, b_z, W_r, b_r, W_h, b_h):
    hx = np.concatenate([h_prev, x_t], axis=-1)
    z = _sigmoid(hx @ W_z.T + b_z)
    r = _sigmoid(hx @ W_r.T + b_r)
    h_tilde = np.tanh(np.concatenate([(1.0 - r) * h_prev, x_t], axis=-1) @ W_h.T + b_h)
    return z * h_prev + (1.0 - z) * h_tilde
