import numpy as np

HINT = ("Every row of your output is the same state, the last one. Your list holds the "
        "same array object T times: it was updated in place after it was stored, so every "
        "entry shows its final value. Store a fresh array for every step.")


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def gru_sequence(xs, h0, W_z, b_z, W_r, b_r, W_h, b_h):
    h = h0.copy()
    states = []
    for t in range(xs.shape[-2]):
        hx = np.concatenate([h, xs[..., t, :]], axis=-1)
        z = _sigmoid(hx @ W_z.T + b_z)
        r = _sigmoid(hx @ W_r.T + b_r)
        h_tilde = np.tanh(np.concatenate([r * h, xs[..., t, :]], axis=-1) @ W_h.T + b_h)
        h[...] = z * h + (1.0 - z) * h_tilde
        states.append(h)
    return np.stack(states, axis=-2)
