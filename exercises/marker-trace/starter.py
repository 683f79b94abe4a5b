import numpy as np


def marker_trace(x_marked: np.ndarray, x_other: np.ndarray,
                 W_ux: np.ndarray, W_uh: np.ndarray, b_u: np.ndarray,
                 W_ax: np.ndarray, W_ah: np.ndarray, b_a: np.ndarray,
                 gated: bool) -> tuple[np.ndarray, float, float]:
    """Measure how much of the first step's input remains in the state.

    x_marked, x_other: (N, T, D) pairs of sequences that differ only at the first step
    W_ux, W_uh, b_u:   update-gate block (H, D), (H, H), (H,); unused when gated is False
    W_ax, W_ah, b_a:   candidate block (H, D), (H, H), (H,); the whole plain unit
    gated:             True for the gated unit, False for the plain unit

    Both runs start from h_0 = 0. Returns (trace, share, factor):
    trace  float64 array (T,), trace[t - 1] = mean over the N pairs of sum_k |h_t - h'_t|
    share  trace at length T divided by the trace at length 2
    factor share ** (1 / (T - 2)), the equivalent fixed factor per step
    """
    T = x_marked.shape[1]
    # TODO: run the unit on both sets of sequences and compare their states at every step
    trace = np.zeros(T)
    return trace, 0.0, 0.0
