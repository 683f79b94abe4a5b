"""Resets the input's share of the new gate, not the state's: tanh(r * (W_in x + b_in) + ...)."""

import numpy as np

RIGHT_DIAGNOSES = ("gate_scope",)


def _sig(a):
    return np.exp(-np.logaddexp(0.0, -a))


def torch_gru_step(x, h, weight_ih, weight_hh, bias_ih, bias_hh):
    H = h.shape[-1]
    wx = x @ weight_ih.T + bias_ih
    wh = h @ weight_hh.T + bias_hh
    r = _sig(wx[..., :H] + wh[..., :H])
    z = _sig(wx[..., H:2 * H] + wh[..., H:2 * H])
    n = np.tanh(r * wx[..., 2 * H:] + wh[..., 2 * H:])
    return (1.0 - z) * n + z * h
