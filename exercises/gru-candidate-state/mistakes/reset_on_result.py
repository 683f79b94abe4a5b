"""Reset applied to the finished candidate: r_t * tanh(W_h [h_prev, x_t] + b_h)."""

import numpy as np

HINT = ("The reset gate acts at the wrong place. It does not scale the candidate you "
        "return; it decides how much of the previous state the candidate may look at, so "
        "it must act on h_prev before any weight sees it.")


def candidate_state(x_t, h_prev, r_t, W_h, b_h):
    joined = np.concatenate([h_prev, x_t], axis=-1)
    return r_t * np.tanh(joined @ W_h.T + b_h)
