"""Stores s_{t-1} before each update: returns s_0 .. s_{T-1} instead of s_1 .. s_T."""

import numpy as np

RIGHT_DIAGNOSES = ("initial_state_included",)


def leaky_integrate(xs: np.ndarray, alpha: float | np.ndarray, s0: np.ndarray
                    ) -> tuple[np.ndarray, float | np.ndarray]:
    a = np.asarray(alpha, dtype=np.float64)
    s = np.array(s0, dtype=np.float64)
    states = np.zeros(np.shape(xs))
    T = xs.shape[-2]
    for t in range(T):
        states[..., t, :] = s
        s = a * s + (1 - a) * xs[..., t, :]
    window = 1 / (1 - a)
    if np.ndim(alpha) == 0:
        window = float(window)
    return states, window
