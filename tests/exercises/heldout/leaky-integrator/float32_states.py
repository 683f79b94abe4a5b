"""Keeps the running state and the output in float32, which loses precision over long sequences."""

import numpy as np

RIGHT_DIAGNOSES = ("float32_arithmetic",)


def leaky_integrate(xs: np.ndarray, alpha: float | np.ndarray, s0: np.ndarray
                    ) -> tuple[np.ndarray, float | np.ndarray]:
    a = np.asarray(alpha, dtype=np.float32)
    s = np.array(s0, dtype=np.float32)
    states = np.zeros(xs.shape, dtype=np.float32)
    for t in range(xs.shape[-2]):
        s = a * s + (1 - a) * xs[..., t, :].astype(np.float32)
        states[..., t, :] = s
    window = 1.0 / (1.0 - np.asarray(alpha, dtype=np.float64))
    return states.astype(np.float64), (float(window) if window.ndim == 0 else window)
