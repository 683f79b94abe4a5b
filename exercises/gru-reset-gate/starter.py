import numpy as np


def reset_gate(x_t: np.ndarray, h_prev: np.ndarray,
               W_r: np.ndarray, b_r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return the GRU reset gate and the reset (gated) previous state.

    r_t = sigmoid(W_r [h_prev, x_t] + b_r), and the reset state r_t * h_prev.

    Args:
        x_t: current input, shape (D,) or batched (N, D).
        h_prev: previous hidden state, shape (H,) or batched (N, H).
        W_r: weights, shape (H, H + D); the first H columns act on h_prev.
        b_r: bias, shape (H,).

    Returns:
        A tuple (r_t, reset_state) of two float64 arrays, each of shape (H,) or (N, H).
    """
    # TODO: compute the gate with a stable sigmoid, then gate the previous state.
    r_t = np.zeros(np.shape(h_prev))
    reset_state = np.zeros(np.shape(h_prev))
    return r_t, reset_state
