"""The input products are computed for every step before the loop with their biases, and the
loop adds the biases once more."""

import numpy as np

HINT = ("Your states are off even where the inputs are small: each block's bias enters your "
        "pre-activations twice. When you compute the input products ahead of the loop with "
        "their biases, check that the loop does not add the biases again.")


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def gru_sequence(xs, h0, W_z, b_z, W_r, b_r, W_h, b_h):
    H = h0.shape[-1]
    Wz_h, Wz_x = W_z[:, :H], W_z[:, H:]
    Wr_h, Wr_x = W_r[:, :H], W_r[:, H:]
    Wh_h, Wh_x = W_h[:, :H], W_h[:, H:]
    # every step's input part at once
    xz = xs @ Wz_x.T + b_z
    xr = xs @ Wr_x.T + b_r
    xh = xs @ Wh_x.T + b_h
    h = h0
    states = []
    for t in range(xs.shape[-2]):
        z = _sigmoid(h @ Wz_h.T + xz[..., t, :] + b_z)
        r = _sigmoid(h @ Wr_h.T + xr[..., t, :] + b_r)
        h_tilde = np.tanh((r * h) @ Wh_h.T + xh[..., t, :] + b_h)
        h = z * h + (1.0 - z) * h_tilde
        states.append(h)
    return np.stack(states, axis=-2)
