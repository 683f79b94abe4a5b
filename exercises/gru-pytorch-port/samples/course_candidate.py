# expect: verdict=failed score=0 diagnosis=reset_before_product
"""A learner who reuses the course's candidate: the reset state joined with x, times one
matrix built from the two new-gate blocks."""

import numpy as np


def torch_gru_step(x, h, weight_ih, weight_hh, bias_ih, bias_hh):
    H = h.shape[-1]
    sig = lambda a: np.exp(-np.logaddexp(0.0, -a))  # noqa: E731
    r = sig(x @ weight_ih[:H].T + h @ weight_hh[:H].T + bias_ih[:H] + bias_hh[:H])
    z = sig(x @ weight_ih[H:2 * H].T + h @ weight_hh[H:2 * H].T
            + bias_ih[H:2 * H] + bias_hh[H:2 * H])
    W_h = np.concatenate([weight_hh[2 * H:], weight_ih[2 * H:]], axis=1)
    b_h = bias_ih[2 * H:] + bias_hh[2 * H:]
    n = np.tanh(np.concatenate([r * h, x], axis=-1) @ W_h.T + b_h)
    return z * h + (1.0 - z) * n
