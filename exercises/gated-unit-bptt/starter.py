import numpy as np


def gated_unit_bptt(x: np.ndarray, h0: np.ndarray,
                    W_ux: np.ndarray, W_uh: np.ndarray, b_u: np.ndarray,
                    W_ax: np.ndarray, W_ah: np.ndarray, b_a: np.ndarray,
                    y: np.ndarray) -> tuple[np.ndarray, ...]:
    """Gradients of L = 1/2 * sum over all steps (and rows) of (h_t - y_t)**2.

    x:  (T, D) or (N, T, D) inputs;   h0: (H,) or (N, H) initial state
    W_ux, W_uh, b_u: update-gate block, shapes (H, D), (H, H), (H,)
    W_ax, W_ah, b_a: candidate block, shapes (H, D), (H, H), (H,)
    y:  (T, H) or (N, T, H) targets for the states h_1..h_T

    Returns the float64 tuple (dh0, dW_ux, dW_uh, db_u, dW_ax, dW_ah, db_a), each shaped
    like the argument it is the gradient of.
    """
    # TODO: run the forward pass keeping u_t, a_t and h_{t-1}, then walk back from t = T
    return (np.zeros_like(h0), np.zeros_like(W_ux), np.zeros_like(W_uh), np.zeros_like(b_u),
            np.zeros_like(W_ax), np.zeros_like(W_ah), np.zeros_like(b_a))
