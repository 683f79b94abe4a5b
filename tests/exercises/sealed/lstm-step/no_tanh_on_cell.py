"""Shows the cell state without squashing it: h_t = o_t * c_t instead of o_t * tanh(c_t)."""

import numpy as np

RIGHT_DIAGNOSES = ("missing_cell_tanh",)


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def lstm_step(x_t: np.ndarray, h_prev: np.ndarray, c_prev: np.ndarray,
              W: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    H = h_prev.shape[-1]
    W_h, W_x = W[:, :H], W[:, H:]
    gates = h_prev @ W_h.T + x_t @ W_x.T + b
    input_gate = _sigmoid(gates[..., 0:H])
    forget_gate = _sigmoid(gates[..., H:2 * H])
    candidate = np.tanh(gates[..., 2 * H:3 * H])
    output_gate = _sigmoid(gates[..., 3 * H:4 * H])
    c_t = forget_gate * c_prev + input_gate * candidate
    h_t = output_gate * c_t
    return h_t, c_t
