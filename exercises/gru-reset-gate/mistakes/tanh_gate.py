"""tanh as the gate's activation: gate values in (-1, 1) instead of (0, 1)."""

import numpy as np

HINT = ("Some of your gate values are negative. A gate is a mixing coefficient between 'hide' "
        "(0) and 'show' (1), so its activation must map into (0, 1); tanh belongs to the "
        "candidate state, not to the gates.")


def reset_gate(x_t, h_prev, W_r, b_r):
    joined = np.concatenate([h_prev, x_t], axis=-1)
    r = np.tanh(joined @ W_r.T + b_r)
    return r, r * h_prev
