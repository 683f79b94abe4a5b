import numpy as np

HINT = ("The first H columns of every weight matrix act on the hidden state and the last D "
        "columns on the input. Look at the order in which you join the two vectors before "
        "multiplying. The arguments come the other way round, x_t before h_prev: the "
        "concatenation does not follow them.")


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def gru_step(x_t, h_prev, W_z, b_z, W_r, b_r, W_h, b_h):
    xh = np.concatenate([x_t, h_prev], axis=-1)
    z = _sigmoid(xh @ W_z.T + b_z)
    r = _sigmoid(xh @ W_r.T + b_r)
    h_tilde = np.tanh(np.concatenate([x_t, r * h_prev], axis=-1) @ W_h.T + b_h)
    return z * h_prev + (1.0 - z) * h_tilde
