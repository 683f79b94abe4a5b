"""Gate pre-activations clipped to [-15, 15] before the sigmoid, to keep exp from overflowing."""

import numpy as np

HINT = ("Your states are right except where a gate saturates: there the gate stops short of 0 "
        "or 1 by more than the tolerance. Clipping the pre-activation (or the gate) to a "
        "narrow range avoids the overflow but changes the value; write a sigmoid that is exact "
        "for every a instead: np.exp(-np.logaddexp(0, -a)), or split on the sign without an "
        "overflowing branch, e = np.exp(-np.abs(a)) and np.where(a >= 0, 1, e) / (1 + e).")


def _sigmoid(a):
    return 1.0 / (1.0 + np.exp(-np.clip(a, -15.0, 15.0)))


def gru_sequence(xs, h0, W_z, b_z, W_r, b_r, W_h, b_h):
    h = h0
    states = []
    for t in range(xs.shape[-2]):
        hx = np.concatenate([h, xs[..., t, :]], axis=-1)
        z = _sigmoid(hx @ W_z.T + b_z)
        r = _sigmoid(hx @ W_r.T + b_r)
        h_tilde = np.tanh(np.concatenate([r * h, xs[..., t, :]], axis=-1) @ W_h.T + b_h)
        h = z * h + (1.0 - z) * h_tilde
        states.append(h)
    return np.stack(states, axis=-2)
