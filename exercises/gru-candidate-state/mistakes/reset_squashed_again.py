"""The given gate values passed through a sigmoid once more: sigmoid(r_t) * h_prev."""

import numpy as np

HINT = ("Your candidate is wrong even where the reset gate is fully open or fully closed. "
        "r_t already holds the gate's values in [0, 1]: it scales the previous state as it "
        "is, with no further activation.")


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def candidate_state(x_t, h_prev, r_t, W_h, b_h):
    joined = np.concatenate([_sigmoid(r_t) * h_prev, x_t], axis=-1)
    return np.tanh(joined @ W_h.T + b_h)
