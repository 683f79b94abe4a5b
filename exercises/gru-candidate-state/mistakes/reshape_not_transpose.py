"""W_h.reshape(H + D, H) where a transpose belongs: the right shape, the entries scrambled."""

import numpy as np

HINT = ("Your shapes fit but the values do not. Reshaping a (H, H + D) matrix to (H + D, H) "
        "keeps the entries in reading order, so they land in other rows and columns than a "
        "transpose would put them: row k of W_h must still be the weights of unit k.")


def candidate_state(x_t, h_prev, r_t, W_h, b_h):
    joined = np.concatenate([r_t * h_prev, x_t], axis=-1)
    H = W_h.shape[0]
    return np.tanh(joined @ W_h.reshape(joined.shape[-1], H) + b_h)
