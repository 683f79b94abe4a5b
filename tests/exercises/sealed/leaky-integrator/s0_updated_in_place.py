"""Updates the state in place starting from s = s0 (no copy), so the caller's s0 is changed."""

import numpy as np

RIGHT_DIAGNOSES = ("changed_input",)


def leaky_integrate(xs: np.ndarray, alpha: float | np.ndarray, s0: np.ndarray
                    ) -> tuple[np.ndarray, float | np.ndarray]:
    T = xs.shape[-2]
    states = np.zeros_like(xs, dtype=np.float64)
    s = s0
    for t in range(T):
        s *= alpha
        s += (1 - alpha) * xs[..., t, :]
        states[..., t, :] = s
    if isinstance(alpha, float):
        return states, 1 / (1 - alpha)
    return states, 1 / (1 - np.asarray(alpha, dtype=np.float64))
