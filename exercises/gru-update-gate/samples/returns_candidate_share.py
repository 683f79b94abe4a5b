# expect: verdict=failed score=0 diagnosis=one_minus_z
"""A learner who read z as the amount of change: 1 - sigmoid(a), written as sigmoid(-a)."""

import numpy as np


def update_gate(x_t, h_prev, W_z, b_z):
    a = np.concatenate([h_prev, x_t], axis=-1) @ W_z.T + b_z
    return 1.0 / (1.0 + np.exp(a))
