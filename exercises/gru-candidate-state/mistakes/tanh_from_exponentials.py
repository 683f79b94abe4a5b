"""tanh written from its definition (e^a - e^-a) / (e^a + e^-a): inf / inf = NaN for large |a|."""

import numpy as np

HINT = ("Your candidate is right for moderate inputs but NaN where the pre-activation is "
        "large. Written with exponentials, tanh divides inf by inf once exp overflows "
        "(above about 709 in float64). Use a form that cannot overflow, such as np.tanh.")


def candidate_state(x_t, h_prev, r_t, W_h, b_h):
    joined = np.concatenate([r_t * h_prev, x_t], axis=-1)
    a = joined @ W_h.T + b_h
    return (np.exp(a) - np.exp(-a)) / (np.exp(a) + np.exp(-a))
