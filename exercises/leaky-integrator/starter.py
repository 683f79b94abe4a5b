import numpy as np


def leaky_integrate(xs: np.ndarray, alpha: float | np.ndarray, s0: np.ndarray
                    ) -> tuple[np.ndarray, float | np.ndarray]:
    """Leaky integration (an exponential moving average) of a sequence.

    s_t = alpha * s_{t-1} + (1 - alpha) * x_t   for t = 1, ..., T, starting from s0.

    Args:
        xs: the inputs x_1..x_T, shape (T, D), or (N, T, D) for a batch of N sequences.
        alpha: the retention factor(s) in [0, 1): a float, or an array broadcastable to
            s0's shape, e.g. (D,) for one time constant per dimension.
        s0: the initial state, shape (D,), or (N, D) for a batch.

    Returns:
        states: float64 array of xs's shape holding s_1..s_T (s0 is not included).
        window: the effective memory window 1 / (1 - alpha): a float if alpha is a
            float, else a float64 array of alpha's shape.
    """
    states = np.zeros(np.shape(xs))  # TODO: run the recurrence over the time axis
    window = 0.0 if np.ndim(alpha) == 0 else np.zeros(np.shape(alpha))  # TODO
    return states, window
