import numpy as np


def lstm_step(x_t: np.ndarray, h_prev: np.ndarray, c_prev: np.ndarray,
              W: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One step of an LSTM cell.

    Args:
        x_t: current input, shape (D,) or (N, D).
        h_prev: previous hidden state, shape (H,) or (N, H).
        c_prev: previous cell state, shape (H,) or (N, H).
        W: stacked weights, shape (4H, H + D), acting on [h_prev, x_t] (hidden part first);
            row blocks of H rows each: input gate i, forget gate f, candidate g, output gate o.
        b: stacked biases, shape (4H,), in the same block order.

    Returns:
        The tuple (h_t, c_t), both float64 with the shape of h_prev.
    """
    # TODO: one affine map for all four blocks, split it, apply the activations,
    # update the cell state, then compute the new hidden state from it.
    h_t = np.zeros_like(h_prev, dtype=np.float64)
    c_t = np.zeros_like(c_prev, dtype=np.float64)
    return h_t, c_t
