# expect: verdict=passed score=26 diagnosis=none
"""Another correct method: sigmoid(a) = (1 + tanh(a / 2)) / 2, which never overflows either.

The gate is computed from the two blocks of W_z instead of the joined vector."""

import numpy as np


def update_gate(x_t, h_prev, W_z, b_z):
    hidden = h_prev.shape[-1]
    a = h_prev @ W_z[:, :hidden].T + x_t @ W_z[:, hidden:].T + b_z
    return 0.5 * (1.0 + np.tanh(0.5 * a))
