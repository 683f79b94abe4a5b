"""Reads the weights' rows as interleaved per unit (r0, z0, n0, r1, ...) instead of three blocks."""

import numpy as np

RIGHT_DIAGNOSES = ("blocks_interleaved",)


def _sig(a):
    return np.exp(-np.logaddexp(0.0, -a))


def torch_gru_step(x, h, weight_ih, weight_hh, bias_ih, bias_hh):
    wx = x @ weight_ih.T + bias_ih
    wh = h @ weight_hh.T + bias_hh
    r = _sig(wx[..., 0::3] + wh[..., 0::3])
    z = _sig(wx[..., 1::3] + wh[..., 1::3])
    n = np.tanh(wx[..., 2::3] + r * wh[..., 2::3])
    return (1.0 - z) * n + z * h
