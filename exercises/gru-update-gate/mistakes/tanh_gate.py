"""tanh as the gate's activation: gate values in (-1, 1) instead of (0, 1)."""

import numpy as np

HINT = ("Some of your gate values are negative. A gate is a share between 'replace' (0) and "
        "'keep' (1), so its activation must map into (0, 1); tanh belongs to the candidate "
        "state, not to the gates.")


def update_gate(x_t, h_prev, W_z, b_z):
    joined = np.concatenate([h_prev, x_t], axis=-1)
    return np.tanh(joined @ W_z.T + b_z)
