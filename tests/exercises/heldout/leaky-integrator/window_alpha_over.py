"""Computes the window as alpha / (1 - alpha) instead of 1 / (1 - alpha)."""

import numpy as np

RIGHT_DIAGNOSES = ("window_mean_lag",)


def leaky_integrate(xs: np.ndarray, alpha: float | np.ndarray, s0: np.ndarray
                    ) -> tuple[np.ndarray, float | np.ndarray]:
    a = np.asarray(alpha, dtype=np.float64)
    s = np.array(s0, dtype=np.float64)
    states = np.empty(xs.shape, dtype=np.float64)
    for t in range(xs.shape[-2]):
        s = a * s + (1.0 - a) * xs[..., t, :]
        states[..., t, :] = s
    window = a / (1.0 - a)
    return states, (float(window) if window.ndim == 0 else window)
