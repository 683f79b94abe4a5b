import numpy as np


def gru_sequence(xs: np.ndarray, h0: np.ndarray,
                 W_z: np.ndarray, b_z: np.ndarray,
                 W_r: np.ndarray, b_r: np.ndarray,
                 W_h: np.ndarray, b_h: np.ndarray) -> np.ndarray:
    """Run a GRU cell over a whole sequence.

    Args:
        xs: the inputs x_1 .. x_T, shape (T, D) or batched (N, T, D) (batch first).
        h0: the initial hidden state, shape (H,) or batched (N, H).
        W_z, W_r, W_h: weights of the update gate, the reset gate and the candidate,
            each of shape (H, H + D), acting on [h, x] (hidden part first).
        b_z, b_r, b_h: their biases, each of shape (H,).

    Returns:
        float64 array of the states h_1 .. h_T (not h0): shape (T, H) or (N, T, H).
    """
    T = xs.shape[-2]
    H = h0.shape[-1]
    # TODO: apply one GRU step per time step, feeding each new state into the next step.
    return np.zeros((*h0.shape[:-1], T, H))
