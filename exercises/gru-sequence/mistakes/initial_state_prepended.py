import numpy as np

HINT = ("Your output has one state too many. Row t - 1 should be the state after reading "
        "x_t; the initial state is an input, not part of the output.")


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def _step(h, x, W_z, b_z, W_r, b_r, W_h, b_h):
    hx = np.concatenate([h, x], axis=-1)
    z = _sigmoid(hx @ W_z.T + b_z)
    r = _sigmoid(hx @ W_r.T + b_r)
    h_tilde = np.tanh(np.concatenate([r * h, x], axis=-1) @ W_h.T + b_h)
    return z * h + (1.0 - z) * h_tilde


def gru_sequence(xs, h0, W_z, b_z, W_r, b_r, W_h, b_h):
    states = [h0]
    for t in range(xs.shape[-2]):
        states.append(_step(states[-1], xs[..., t, :], W_z, b_z, W_r, b_r, W_h, b_h))
    return np.stack(states, axis=-2)
