"""Loops over the first axis (xs[t]): a batch (N, T, D) is run over its sequences, not time."""

import numpy as np

RIGHT_DIAGNOSES = ("time_axis_first",)


def leaky_integrate(xs: np.ndarray, alpha: float | np.ndarray, s0: np.ndarray
                    ) -> tuple[np.ndarray, float | np.ndarray]:
    s = s0.copy()
    out = []
    for x in xs:
        s = alpha * s + (1 - alpha) * x
        out.append(s)
    if np.ndim(alpha) == 0:
        window = 1 / (1 - float(alpha))
    else:
        window = 1 / (1 - np.asarray(alpha, dtype=np.float64))
    return np.array(out, dtype=np.float64), window
