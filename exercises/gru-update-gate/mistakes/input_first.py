"""Wrong concatenation order: [x_t, h_prev] instead of [h_prev, x_t]."""

import numpy as np

HINT = ("The gate values look plausible but do not match. The first H columns of W_z are "
        "meant for the previous hidden state and the last D columns for the input: check "
        "which vector comes first in the vector you multiply by W_z. The arguments come the other "
        "way round, x_t before h_prev: the concatenation does not follow them.")


def update_gate(x_t, h_prev, W_z, b_z):
    joined = np.concatenate([x_t, h_prev], axis=-1)
    return np.exp(-np.logaddexp(0.0, -(joined @ W_z.T + b_z)))
