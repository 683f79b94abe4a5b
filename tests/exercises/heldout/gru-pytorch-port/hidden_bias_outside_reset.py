"""Resets W_hn h only and adds b_hn outside: r * (W_hn h) + b_hn instead of r * (W_hn h + b_hn)."""

import numpy as np

RIGHT_DIAGNOSES = ("hidden_bias_outside_reset",)


def sigmoid(v):
    return np.exp(-np.logaddexp(0.0, -v))


def torch_gru_step(x, h, weight_ih, weight_hh, bias_ih, bias_hh):
    H = h.shape[-1]
    Wi_r, Wi_z, Wi_n = weight_ih[:H], weight_ih[H:2 * H], weight_ih[2 * H:]
    Wh_r, Wh_z, Wh_n = weight_hh[:H], weight_hh[H:2 * H], weight_hh[2 * H:]
    b = bias_ih + bias_hh
    r = sigmoid(x @ Wi_r.T + h @ Wh_r.T + b[:H])
    z = sigmoid(x @ Wi_z.T + h @ Wh_z.T + b[H:2 * H])
    n = np.tanh(x @ Wi_n.T + r * (h @ Wh_n.T) + b[2 * H:])
    return (1 - z) * n + z * h
