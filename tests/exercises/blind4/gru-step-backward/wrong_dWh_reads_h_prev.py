"""Mistake: dW_h is the outer product with [h_prev, x_t] instead of what the candidate read, [r * h_prev, x_t]."""
import numpy as np


def _sigmoid(q):
    return np.exp(-np.logaddexp(0.0, -q))


def gru_step_backward(x_t, h_prev, W_z, b_z, W_r, b_r, W_h, b_h, dh):
    H = h_prev.shape[-1]
    joined = np.concatenate([h_prev, x_t], axis=-1)
    z = _sigmoid(joined @ W_z.T + b_z)
    r = _sigmoid(joined @ W_r.T + b_r)
    reset = r * h_prev
    joined_reset = np.concatenate([reset, x_t], axis=-1)
    cand = np.tanh(joined_reset @ W_h.T + b_h)
    dq_z = dh * (h_prev - cand) * z * (1 - z)
    dq_h = dh * (1 - z) * (1 - cand**2)
    d_joined_reset = dq_h @ W_h
    d_reset = d_joined_reset[..., :H]
    dq_r = d_reset * h_prev * r * (1 - r)
    d_joined = dq_z @ W_z + dq_r @ W_r
    dh_prev = dh * z + d_reset * r + d_joined[..., :H]
    dx_t = d_joined[..., H:] + d_joined_reset[..., H:]

    def outer(d, v):
        return np.atleast_2d(d).T @ np.atleast_2d(v)

    def total(d):
        return np.atleast_2d(d).sum(axis=0)

    return (dx_t, dh_prev, outer(dq_z, joined), total(dq_z), outer(dq_r, joined), total(dq_r),
            outer(dq_h, joined), total(dq_h))


RIGHT_DIAGNOSES = ("weight_gradient_of_unreset_state",)
