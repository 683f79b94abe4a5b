"""Pre-activation clipped to [-15, 15] before the sigmoid, to keep exp from overflowing."""

import numpy as np

HINT = ("Your gate is right except where it saturates: there it stops short of 0 and 1 by more "
        "than the tolerance. Clipping the pre-activation (or the gate) to a narrow range "
        "avoids the overflow but changes the value; write a sigmoid that is exact for every a "
        "instead: np.exp(-np.logaddexp(0, -a)), or split on the sign without an overflowing "
        "branch, e = np.exp(-np.abs(a)) and np.where(a >= 0, 1, e) / (1 + e).")


def reset_gate(x_t, h_prev, W_r, b_r):
    joined = np.concatenate([h_prev, x_t], axis=-1)
    a = np.clip(joined @ W_r.T + b_r, -15.0, 15.0)
    r = 1.0 / (1.0 + np.exp(-a))
    return r, r * h_prev
