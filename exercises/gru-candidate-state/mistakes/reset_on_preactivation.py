"""Reset applied to the whole pre-activation: tanh(r_t * (W_h [h_prev, x_t] + b_h))."""

import numpy as np

HINT = ("The reset gate acts at the wrong place: it scales the whole affine map, input and "
        "bias included. It should only decide how much of the previous state the candidate "
        "may look at, so it must act on h_prev itself, unit by unit, before any weight "
        "sees it.")


def candidate_state(x_t, h_prev, r_t, W_h, b_h):
    joined = np.concatenate([h_prev, x_t], axis=-1)
    return np.tanh(r_t * (joined @ W_h.T + b_h))
