import numpy as np

HINT = ("The two gates have different jobs and sit in different places. One decides how "
        "much of the old state the candidate may look at; the other decides how the old "
        "state and the candidate are blended. Check which gate you used in each place.")


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def gru_step(x_t, h_prev, W_z, b_z, W_r, b_r, W_h, b_h):
    hx = np.concatenate([h_prev, x_t], axis=-1)
    z = _sigmoid(hx @ W_z.T + b_z)
    r = _sigmoid(hx @ W_r.T + b_r)
    # the roles of the gates exchanged: r mixes, z filters the old state
    h_tilde = np.tanh(np.concatenate([z * h_prev, x_t], axis=-1) @ W_h.T + b_h)
    return r * h_prev + (1.0 - r) * h_tilde
