"""Wrong concatenation order: [x_t, h_prev] instead of [h_prev, x_t]."""

import numpy as np

HINT = ("Your gate values are plausible but do not match. W_r is laid out for one particular "
        "order of the concatenated vector: its first H columns belong to the previous hidden "
        "state. Check what comes first in the vector you multiply by W_r. The arguments come the "
        "other way round, x_t before h_prev: the concatenation does not follow them.")


def reset_gate(x_t, h_prev, W_r, b_r):
    joined = np.concatenate([x_t, h_prev], axis=-1)
    r = np.exp(-np.logaddexp(0.0, -(joined @ W_r.T + b_r)))
    return r, r * h_prev
