"""Mixes the other way round, h' = z * n + (1 - z) * h: z keeps the new gate, not the old state."""

import numpy as np

RIGHT_DIAGNOSES = ("update_convention_swapped",)


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def torch_gru_step(x, h, weight_ih, weight_hh, bias_ih, bias_hh):
    H = h.shape[-1]
    gi = x @ weight_ih.T + bias_ih
    gh = h @ weight_hh.T + bias_hh
    r = _sigmoid(gi[..., :H] + gh[..., :H])
    z = _sigmoid(gi[..., H:2 * H] + gh[..., H:2 * H])
    n = np.tanh(gi[..., 2 * H:] + r * gh[..., 2 * H:])
    return z * n + (1.0 - z) * h
