import numpy as np

HINT = ("Your states follow the candidates where they should hold on to the past, so "
        "information fades when it should persist. In this convention z close to 1 means "
        "'keep the previous state'. Check which of z and 1 - z multiplies it.")


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def gru_sequence(xs, h0, W_z, b_z, W_r, b_r, W_h, b_h):
    h = h0
    states = []
    for t in range(xs.shape[-2]):
        hx = np.concatenate([h, xs[..., t, :]], axis=-1)
        z = _sigmoid(hx @ W_z.T + b_z)
        r = _sigmoid(hx @ W_r.T + b_r)
        h_tilde = np.tanh(np.concatenate([r * h, xs[..., t, :]], axis=-1) @ W_h.T + b_h)
        h = (1.0 - z) * h + z * h_tilde
        states.append(h)
    return np.stack(states, axis=-2)
