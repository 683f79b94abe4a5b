"""tanh written with exponentials: NaN once a pre-activation or the cell is large."""

import numpy as np

HINT = ("Your outputs are right for moderate inputs but become NaN where the candidate's "
        "pre-activation or the cell state is large. Written with exponentials, tanh divides "
        "inf by inf once exp overflows (above about 709 in float64). Use a form that cannot "
        "overflow, such as np.tanh.")


def _sigmoid(a: np.ndarray) -> np.ndarray:
    # sigma(a) = exp(-log(1 + exp(-a))): no overflow for any finite a.
    return np.exp(-np.logaddexp(0.0, -a))


def _tanh(a):
    return (np.exp(a) - np.exp(-a)) / (np.exp(a) + np.exp(-a))


def lstm_step(x_t: np.ndarray, h_prev: np.ndarray, c_prev: np.ndarray,
              W: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One LSTM step on (D,)/(H,) or (N, D)/(N, H) inputs; returns (h_t, c_t).

    W (4H, H + D) acts on [h_prev, x_t]; its row blocks are i, f, g, o, in this order.
    """
    H = h_prev.shape[-1]
    a = np.concatenate([h_prev, x_t], axis=-1) @ W.T + b        # (..., 4H)
    i = _sigmoid(a[..., 0 * H:1 * H])
    f = _sigmoid(a[..., 1 * H:2 * H])
    g = _tanh(a[..., 2 * H:3 * H])
    o = _sigmoid(a[..., 3 * H:4 * H])
    c_t = f * c_prev + i * g
    h_t = o * _tanh(c_t)
    return h_t, c_t
