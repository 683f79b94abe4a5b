"""Returns s_0 .. s_{T-1}: each state is stored before it is updated with x_t."""

import numpy as np

RIGHT_DIAGNOSES = ("initial_state_included",)


def leaky_integrate(xs: np.ndarray, alpha: float | np.ndarray, s0: np.ndarray
                    ) -> tuple[np.ndarray, float | np.ndarray]:
    alpha_arr = np.asarray(alpha, dtype=np.float64)
    state = np.array(s0, dtype=np.float64)
    states = np.empty(xs.shape, dtype=np.float64)
    for t in range(xs.shape[-2]):
        states[..., t, :] = state
        state = alpha_arr * state + (1 - alpha_arr) * xs[..., t, :]
    window = 1.0 / (1.0 - alpha_arr)
    if window.ndim == 0:
        window = float(window)
    return states, window
