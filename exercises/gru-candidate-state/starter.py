import numpy as np


def candidate_state(x_t: np.ndarray, h_prev: np.ndarray, r_t: np.ndarray,
                    W_h: np.ndarray, b_h: np.ndarray) -> np.ndarray:
    """Return the GRU candidate state tanh(W_h [r_t * h_prev, x_t] + b_h).

    Args:
        x_t: current input, shape (D,) or batched (N, D).
        h_prev: previous hidden state, shape (H,) or batched (N, H).
        r_t: reset gate values in [0, 1], same shape as h_prev.
        W_h: weights, shape (H, H + D); the first H columns act on the reset state.
        b_h: bias, shape (H,).

    Returns:
        float64 array of candidate values in [-1, 1], shape (H,) or (N, H).
    """
    # TODO: gate the previous state, concatenate with the input, affine map, tanh.
    return np.zeros(np.shape(h_prev))
