"""tanh written as (e^2a - 1) / (e^2a + 1): inf / inf = NaN once 2a overflows."""

import numpy as np

HINT = ("Your candidate is right for moderate inputs but NaN where the pre-activation is "
        "large. Written with exponentials, tanh divides inf by inf once exp overflows "
        "(above about 709 in float64). Use a form that cannot overflow, such as np.tanh.")


def candidate_state(x_t, h_prev, r_t, W_h, b_h):
    joined = np.concatenate([r_t * h_prev, x_t], axis=-1)
    e = np.exp(2.0 * (joined @ W_h.T + b_h))
    return (e - 1.0) / (e + 1.0)
