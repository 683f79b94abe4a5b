import numpy as np

HINT = ("Your new state is right for moderate inputs but NaN where the candidate's "
        "pre-activation is large. Written with exponentials, tanh divides inf by inf once exp "
        "overflows (above about 709 in float64). Use a form that cannot overflow, such as "
        "np.tanh.")


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def _tanh(a):
    return (np.exp(a) - np.exp(-a)) / (np.exp(a) + np.exp(-a))


def gru_step(x_t, h_prev, W_z, b_z, W_r, b_r, W_h, b_h):
    hx = np.concatenate([h_prev, x_t], axis=-1)
    z = _sigmoid(hx @ W_z.T + b_z)
    r = _sigmoid(hx @ W_r.T + b_r)
    h_tilde = _tanh(np.concatenate([r * h_prev, x_t], axis=-1) @ W_h.T + b_h)
    return z * h_prev + (1.0 - z) * h_tilde
