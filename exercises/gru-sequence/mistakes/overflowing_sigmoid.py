import numpy as np

HINT = ("Your states are right for moderate inputs but become NaN where a gate's "
        "pre-activation is large. In float64, exp overflows to inf above about 709, and inf / "
        "inf is NaN. Write the sigmoid so that exp only ever sees a non-positive argument: "
        "np.exp(-np.logaddexp(0, -a)), or e = np.exp(-np.abs(a)) and np.where(a >= 0, 1, e) / "
        "(1 + e) (np.where evaluates both of its branches, so a sign split written inside it "
        "still overflows).")


def _sigmoid(a):
    return np.exp(a) / (1.0 + np.exp(a))


def _step(h, x, W_z, b_z, W_r, b_r, W_h, b_h):
    hx = np.concatenate([h, x], axis=-1)
    z = _sigmoid(hx @ W_z.T + b_z)
    r = _sigmoid(hx @ W_r.T + b_r)
    h_tilde = np.tanh(np.concatenate([r * h, x], axis=-1) @ W_h.T + b_h)
    return z * h + (1.0 - z) * h_tilde


def gru_sequence(xs, h0, W_z, b_z, W_r, b_r, W_h, b_h):
    h = h0
    states = []
    for t in range(xs.shape[-2]):
        h = _step(h, xs[..., t, :], W_z, b_z, W_r, b_r, W_h, b_h)
        states.append(h)
    return np.stack(states, axis=-2)
