"""Adds the raw input, s_t = alpha * s_{t-1} + x_t, leaving out the (1 - alpha) factor."""

import numpy as np

RIGHT_DIAGNOSES = ("input_not_scaled",)


def leaky_integrate(xs: np.ndarray, alpha: float | np.ndarray, s0: np.ndarray
                    ) -> tuple[np.ndarray, float | np.ndarray]:
    a = np.asarray(alpha, dtype=np.float64)
    s = np.array(s0, dtype=np.float64)
    states = np.empty(xs.shape, dtype=np.float64)
    for t in range(xs.shape[-2]):
        s = a * s + xs[..., t, :]
        states[..., t, :] = s
    window = 1.0 / (1.0 - a)
    return states, (float(window) if window.ndim == 0 else window)
