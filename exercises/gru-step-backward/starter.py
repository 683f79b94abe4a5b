import numpy as np


def gru_step_backward(x_t: np.ndarray, h_prev: np.ndarray,
                      W_z: np.ndarray, b_z: np.ndarray,
                      W_r: np.ndarray, b_r: np.ndarray,
                      W_h: np.ndarray, b_h: np.ndarray,
                      dh: np.ndarray) -> tuple[np.ndarray, ...]:
    """The gradients of one GRU step, as gru_step computes it, given dL/dh_t = dh.

    x_t: (D,) or (N, D);  h_prev: (H,) or (N, H);  dh: shaped like h_prev
    W_z, W_r, W_h: (H, H + D), acting on [h, x];  b_z, b_r, b_h: (H,)

    Returns the float64 tuple (dx_t, dh_prev, dW_z, db_z, dW_r, db_r, dW_h, db_h), each shaped
    like the argument it is the gradient of (the parameters' summed over a batch's rows).
    """
    # TODO: run the forward step again, keeping z, r, r * h_prev and the candidate, then
    # walk back from h_t = z * h_prev + (1 - z) * candidate
    return (np.zeros_like(x_t), np.zeros_like(h_prev), np.zeros_like(W_z), np.zeros_like(b_z),
            np.zeros_like(W_r), np.zeros_like(b_r), np.zeros_like(W_h), np.zeros_like(b_h))
