"""Reset forgotten: tanh(W_h [h_prev, x_t] + b_h), r_t unused."""

import numpy as np

HINT = ("Your candidate would be right if the reset gate were fully open (all ones). The "
        "candidate must only see the part of the previous state that the reset gate lets "
        "through. Is every argument of the function used?")


def candidate_state(x_t, h_prev, r_t, W_h, b_h):
    joined = np.concatenate([h_prev, x_t], axis=-1)
    return np.tanh(joined @ W_h.T + b_h)
