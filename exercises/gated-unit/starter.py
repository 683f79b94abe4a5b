import numpy as np


def gated_unit(x: np.ndarray, h0: np.ndarray,
               W_ux: np.ndarray, W_uh: np.ndarray, b_u: np.ndarray,
               W_ax: np.ndarray, W_ah: np.ndarray, b_a: np.ndarray) -> np.ndarray:
    """Run the gated unit over a whole sequence.

    x:    (T, D) or (N, T, D) inputs x_1..x_T
    h0:   (H,) or (N, H) initial state
    W_ux, W_uh, b_u: update-gate block, shapes (H, D), (H, H), (H,)
    W_ax, W_ah, b_a: candidate block, shapes (H, D), (H, H), (H,)

    Returns the float64 states h_1..h_T, shape (T, H) or (N, T, H).
    """
    T = x.shape[-2]
    H = h0.shape[-1]
    # TODO: for every step, compute u_t and a_t from x_t and h_{t-1}, mix, and store h_t
    return np.zeros(x.shape[:-2] + (T, H))
