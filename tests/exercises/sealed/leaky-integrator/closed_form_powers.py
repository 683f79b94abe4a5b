"""Vectorised closed form with alpha**-k: overflows to inf/NaN for long runs or small alpha."""

import numpy as np

RIGHT_DIAGNOSES = ("closed_form_overflow",)


def leaky_integrate(xs: np.ndarray, alpha: float | np.ndarray, s0: np.ndarray
                    ) -> tuple[np.ndarray, float | np.ndarray]:
    a = np.asarray(alpha, dtype=np.float64)
    a_t = a[..., None, :] if a.ndim else a             # one factor per dimension, over time
    k = np.arange(1, xs.shape[-2] + 1, dtype=np.float64)[:, None]
    powers = a_t ** k                                   # alpha^t for t = 1..T
    # s_t = alpha^t s0 + (1 - alpha) sum_{j <= t} alpha^(t - j) x_j
    weighted = np.cumsum((1 - a_t) * xs / powers, axis=-2)
    states = powers * (np.asarray(s0)[..., None, :] + weighted)
    window = 1 / (1 - a)
    return states, float(window) if window.ndim == 0 else window
