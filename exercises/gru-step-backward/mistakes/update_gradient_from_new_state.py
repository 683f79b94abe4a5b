"""The update gate's gradient taken with the new state h_t where the previous state belongs."""

import numpy as np

HINT = (
    "Your update gate's gradient uses the new state h_t where the previous state belongs: "
    "h_t = z * h_prev + (1 - z) * h~, so dh_t/dz = h_prev - h~, and the gate's pre-"
    "activation gradient is dh * (h_prev - h~) * z * (1 - z)."
)


def _sigmoid(a: np.ndarray) -> np.ndarray:
    # sigma(a) = exp(-log(1 + exp(-a))): no overflow for any finite a.
    return np.exp(-np.logaddexp(0.0, -a))


def _outer_sum(g: np.ndarray, v: np.ndarray) -> np.ndarray:
    # the outer products g v^T, summed over the batch rows (if any)
    return np.atleast_2d(g).T @ np.atleast_2d(v)


def gru_step_backward(x_t: np.ndarray, h_prev: np.ndarray,
                      W_z: np.ndarray, b_z: np.ndarray,
                      W_r: np.ndarray, b_r: np.ndarray,
                      W_h: np.ndarray, b_h: np.ndarray,
                      dh: np.ndarray) -> tuple[np.ndarray, ...]:
    """The gradients of one GRU step (the forward of gru_step) given dL/dh_t = dh.

    Returns (dx_t, dh_prev, dW_z, db_z, dW_r, db_r, dW_h, db_h); the parameters' gradients
    are summed over the rows of a batch.
    """
    H = h_prev.shape[-1]
    # the forward pass again, keeping what the backward pass reads
    hx = np.concatenate([h_prev, x_t], axis=-1)
    z = _sigmoid(hx @ W_z.T + b_z)
    r = _sigmoid(hx @ W_r.T + b_r)
    reset_hx = np.concatenate([r * h_prev, x_t], axis=-1)
    h_tilde = np.tanh(reset_hx @ W_h.T + b_h)

    # h_t = z * h_prev + (1 - z) * h_tilde
    dh_prev = dh * z                                # the direct path
    h_t = z * h_prev + (1.0 - z) * h_tilde
    dz_pre = dh * (h_t - h_tilde) * z * (1.0 - z)
    dh_pre = dh * (1.0 - z) * (1.0 - h_tilde**2)
    d_reset_hx = dh_pre @ W_h                       # back through the candidate's affine map
    d_reset_h, dx_t = d_reset_hx[..., :H], d_reset_hx[..., H:]
    dh_prev = dh_prev + d_reset_h * r               # through r * h_prev
    dr_pre = d_reset_h * h_prev * r * (1.0 - r)
    d_hx = dz_pre @ W_z + dr_pre @ W_r              # back through both gates' affine maps
    dh_prev = dh_prev + d_hx[..., :H]
    dx_t = dx_t + d_hx[..., H:]

    def bias(g: np.ndarray) -> np.ndarray:
        return np.atleast_2d(g).sum(axis=0)

    return (dx_t, dh_prev,
            _outer_sum(dz_pre, hx), bias(dz_pre),
            _outer_sum(dr_pre, hx), bias(dr_pre),
            _outer_sum(dh_pre, reset_hx), bias(dh_pre))
