"""Closed form alpha^t (s0 + sum (1-alpha) x_k / alpha^k): alpha^-t overflows on long runs."""

import numpy as np

RIGHT_DIAGNOSES = ("closed_form_overflow",)


def _window(a):
    w = 1.0 / (1.0 - a)
    return float(w) if np.ndim(w) == 0 else w


def leaky_integrate(xs, alpha, s0):
    a = np.asarray(alpha, dtype=np.float64)
    t = np.arange(1, xs.shape[-2] + 1)[:, None]
    with np.errstate(all="ignore"):
        powers = a ** t
        states = powers * (s0[..., None, :] + np.cumsum(xs * (1.0 - a) / powers, axis=-2))
    return states, _window(a)
