import numpy as np


def update_gate(x_t: np.ndarray, h_prev: np.ndarray,
                W_z: np.ndarray, b_z: np.ndarray) -> np.ndarray:
    """Return the GRU update gate z_t = sigmoid(W_z [h_prev, x_t] + b_z).

    Args:
        x_t: current input, shape (D,) or batched (N, D).
        h_prev: previous hidden state, shape (H,) or batched (N, H).
        W_z: weights, shape (H, H + D); the first H columns act on h_prev.
        b_z: bias, shape (H,).

    Returns:
        float64 array of gate values in [0, 1], shape (H,) or (N, H).
    """
    # TODO: concatenate h_prev and x_t, apply the affine map, then a stable sigmoid.
    return np.zeros(np.shape(h_prev))
