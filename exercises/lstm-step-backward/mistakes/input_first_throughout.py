"""W read as acting on [x_t, h_prev], in the forward pass and the gradients alike."""

import numpy as np

HINT = (
    "You read W as acting on [x_t, h_prev], the order of the arguments: W acts on [h_prev, "
    "x_t], its first H columns multiply h_prev and its last D columns x_t. Concatenate in "
    "that order in the forward pass, and split the gradient of the concatenation the same "
    "way (the first H columns for dh_prev)."
)


def _sigmoid(a: np.ndarray) -> np.ndarray:
    # sigma(a) = exp(-log(1 + exp(-a))): no overflow for any finite a.
    return np.exp(-np.logaddexp(0.0, -a))


def lstm_step_backward(x_t: np.ndarray, h_prev: np.ndarray, c_prev: np.ndarray,
                       W: np.ndarray, b: np.ndarray,
                       dh: np.ndarray, dc: np.ndarray) -> tuple[np.ndarray, ...]:
    """The gradients of one LSTM step (the forward of lstm_step) given dL/dh_t = dh and the
    cell's gradient from the later steps, dL/dc_t = dc.

    Returns (dx_t, dh_prev, dc_prev, dW, db); dW and db are summed over a batch's rows.
    """
    H = h_prev.shape[-1]
    # the forward step again, keeping what the backward pass reads
    hx = np.concatenate([x_t, h_prev], axis=-1)
    D = x_t.shape[-1]
    a = hx @ W.T + b
    i = _sigmoid(a[..., 0 * H:1 * H])
    f = _sigmoid(a[..., 1 * H:2 * H])
    g = np.tanh(a[..., 2 * H:3 * H])
    o = _sigmoid(a[..., 3 * H:4 * H])
    c_t = f * c_prev + i * g
    tanh_c = np.tanh(c_t)

    # h_t = o * tanh(c_t): the cell receives its own gradient and the one through h_t
    do = dh * tanh_c
    dc_t = dc + dh * o * (1.0 - tanh_c**2)
    # c_t = f * c_prev + i * g
    di, df, dg = dc_t * g, dc_t * c_prev, dc_t * i
    dc_prev = dc_t * f
    da = np.concatenate([di * i * (1.0 - i), df * f * (1.0 - f),
                         dg * (1.0 - g**2), do * o * (1.0 - o)], axis=-1)
    dhx = da @ W
    dW = np.atleast_2d(da).T @ np.atleast_2d(hx)
    db = np.atleast_2d(da).sum(axis=0)
    return dhx[..., :D], dhx[..., D:], dc_prev, dW, db
