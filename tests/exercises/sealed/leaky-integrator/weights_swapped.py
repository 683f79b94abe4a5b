"""Swaps the weights: s_t = (1 - alpha) * s_{t-1} + alpha * x_t, alpha weighting the new input."""

import numpy as np

RIGHT_DIAGNOSES = ("swapped_alpha",)


def leaky_integrate(xs: np.ndarray, alpha: float | np.ndarray, s0: np.ndarray
                    ) -> tuple[np.ndarray, float | np.ndarray]:
    a = np.asarray(alpha, dtype=np.float64)
    s = np.array(s0, dtype=np.float64)
    states = np.empty(xs.shape)
    for t in range(xs.shape[-2]):
        s = (1 - a) * s + a * xs[..., t, :]
        states[..., t, :] = s
    window = 1.0 / (1.0 - alpha)
    return states, window
