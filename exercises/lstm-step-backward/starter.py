import numpy as np


def lstm_step_backward(x_t: np.ndarray, h_prev: np.ndarray, c_prev: np.ndarray,
                       W: np.ndarray, b: np.ndarray,
                       dh: np.ndarray, dc: np.ndarray) -> tuple[np.ndarray, ...]:
    """The gradients of one LSTM step, as lstm_step computes it, given dL/dh_t = dh and
    dL/dc_t = dc (the cell's gradient from the later steps).

    x_t: (D,) or (N, D);  h_prev, c_prev, dh, dc: (H,) or (N, H)
    W: (4H, H + D), acting on [h_prev, x_t], row blocks i, f, g, o;  b: (4H,)

    Returns the float64 tuple (dx_t, dh_prev, dc_prev, dW, db), each shaped like the argument
    it is the gradient of (dW and db summed over a batch's rows).
    """
    # TODO: run the forward step again, keeping i, f, g, o, c_t and tanh(c_t), then walk
    # back from h_t = o * tanh(c_t) and c_t = f * c_prev + i * g
    return (np.zeros_like(x_t), np.zeros_like(h_prev), np.zeros_like(c_prev),
            np.zeros_like(W), np.zeros_like(b))
