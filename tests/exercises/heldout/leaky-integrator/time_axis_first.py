"""Iterates over the first axis (xs[t]), so a batch (N, T, D) is read as if N were time."""

import numpy as np

RIGHT_DIAGNOSES = ("time_axis_first",)


def leaky_integrate(xs: np.ndarray, alpha: float | np.ndarray, s0: np.ndarray
                    ) -> tuple[np.ndarray, float | np.ndarray]:
    s = np.array(s0, dtype=np.float64)
    states = np.zeros(np.shape(xs))
    for t in range(len(xs)):
        s = alpha * s + (1 - alpha) * xs[t]
        states[t] = s
    if np.ndim(alpha) == 0:
        return states, 1.0 / (1.0 - alpha)
    return states, 1.0 / (1.0 - np.asarray(alpha, dtype=np.float64))
