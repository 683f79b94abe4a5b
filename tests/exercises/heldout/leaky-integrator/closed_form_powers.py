"""Closed form with alpha^t and 1 / alpha^k: overflows for long sequences or alpha near 0."""

import numpy as np

RIGHT_DIAGNOSES = ("closed_form_overflow",)


def leaky_integrate(xs: np.ndarray, alpha: float | np.ndarray, s0: np.ndarray
                    ) -> tuple[np.ndarray, float | np.ndarray]:
    a = np.asarray(alpha, dtype=np.float64)
    T = xs.shape[-2]
    t = np.arange(1, T + 1, dtype=np.float64)[:, None]        # (T, 1)
    a_t = np.expand_dims(a, -2) if a.ndim > 0 else a           # broadcast over time
    powers = a_t ** t                                          # alpha^t, (..., T, D)
    weighted = np.cumsum((1.0 - a_t) * xs / powers, axis=-2)
    states = powers * (np.expand_dims(s0, -2) + weighted)
    window = 1.0 / (1.0 - a)
    return states, (float(window) if a.ndim == 0 else window)
