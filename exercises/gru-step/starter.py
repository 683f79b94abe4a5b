import numpy as np


def gru_step(x_t: np.ndarray, h_prev: np.ndarray,
             W_z: np.ndarray, b_z: np.ndarray,
             W_r: np.ndarray, b_r: np.ndarray,
             W_h: np.ndarray, b_h: np.ndarray) -> np.ndarray:
    """One step of a GRU cell.

    Args:
        x_t: current input, shape (D,) or (N, D).
        h_prev: previous hidden state, shape (H,) or (N, H).
        W_z, W_r, W_h: weights of the update gate, the reset gate and the candidate,
            each of shape (H, H + D), acting on [h, x] (hidden part first).
        b_z, b_r, b_h: their biases, each of shape (H,).

    Returns:
        The new hidden state h_t, float64, with the shape of h_prev.
    """
    # TODO: update gate z, reset gate r, candidate h_tilde (reset applied to h_prev
    # inside it), then mix the old state and the candidate.
    return np.zeros_like(h_prev, dtype=np.float64)
