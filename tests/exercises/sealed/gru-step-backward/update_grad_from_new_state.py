"""Uses the new state h_t for h_prev in the update gate's gradient: dh * (h_t - cand) * z(1-z)."""

import numpy as np

RIGHT_DIAGNOSES = ("update_gradient_from_new_state",)


def _sig(v):
    return np.exp(-np.logaddexp(0.0, -v))


def gru_step_backward(x_t, h_prev, W_z, b_z, W_r, b_r, W_h, b_h, dh):
    H = h_prev.shape[-1]
    v = np.concatenate([h_prev, x_t], axis=-1)
    z = _sig(v @ W_z.T + b_z)
    r = _sig(v @ W_r.T + b_r)
    u = np.concatenate([r * h_prev, x_t], axis=-1)
    c = np.tanh(u @ W_h.T + b_h)
    h_t = z * h_prev + (1.0 - z) * c

    g_c = dh * (1.0 - z) * (1.0 - c * c)
    g_z = dh * (h_t - c) * z * (1.0 - z)
    g_u = g_c @ W_h
    g_r = g_u[..., :H] * h_prev * r * (1.0 - r)
    g_v = g_z @ W_z + g_r @ W_r
    dh_prev = dh * z + g_u[..., :H] * r + g_v[..., :H]
    dx_t = g_u[..., H:] + g_v[..., H:]
    V, U = np.atleast_2d(v), np.atleast_2d(u)
    gz, gr, gc = np.atleast_2d(g_z), np.atleast_2d(g_r), np.atleast_2d(g_c)
    return (dx_t, dh_prev, gz.T @ V, gz.sum(axis=0), gr.T @ V, gr.sum(axis=0),
            gc.T @ U, gc.sum(axis=0))
