"""Puts both new-gate biases inside the reset: r * (W_hn h + b_hn + b_in), W_in x outside."""

import numpy as np

RIGHT_DIAGNOSES = ("input_bias_inside_reset",)


def _sig(a):
    return np.exp(-np.logaddexp(0.0, -a))


def torch_gru_step(x, h, weight_ih, weight_hh, bias_ih, bias_hh):
    H = h.shape[-1]
    wx = x @ weight_ih.T
    wh = h @ weight_hh.T
    r = _sig(wx[..., :H] + bias_ih[:H] + wh[..., :H] + bias_hh[:H])
    z = _sig(wx[..., H:2 * H] + bias_ih[H:2 * H] + wh[..., H:2 * H] + bias_hh[H:2 * H])
    n = np.tanh(wx[..., 2 * H:] + r * (wh[..., 2 * H:] + bias_hh[2 * H:] + bias_ih[2 * H:]))
    return (1.0 - z) * n + z * h
