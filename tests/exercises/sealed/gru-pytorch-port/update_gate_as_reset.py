"""Writes z where r belongs in the new gate (a slip between the gates): tanh(gi_n + z * gh_n)."""

import numpy as np

RIGHT_DIAGNOSES = ("gate_for_gate",)


def _sig(a):
    return np.exp(-np.logaddexp(0.0, -a))


def torch_gru_step(x, h, weight_ih, weight_hh, bias_ih, bias_hh):
    H = h.shape[-1]
    wx = x @ weight_ih.T + bias_ih
    wh = h @ weight_hh.T + bias_hh
    z = _sig(wx[..., H:2 * H] + wh[..., H:2 * H])
    n = np.tanh(wx[..., 2 * H:] + z * wh[..., 2 * H:])
    return (1.0 - z) * n + z * h
