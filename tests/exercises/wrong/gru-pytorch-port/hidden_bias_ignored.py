"""Uses bias_ih only, as if one bias per block were enough, and never adds bias_hh."""

import numpy as np

RIGHT_DIAGNOSES = ("hidden_bias_dropped",)


def _sigmoid(a):
    return np.exp(-np.logaddexp(0.0, -a))


def torch_gru_step(x, h, weight_ih, weight_hh, bias_ih, bias_hh):
    H = h.shape[-1]
    gi = x @ weight_ih.T + bias_ih
    gh = h @ weight_hh.T
    r = _sigmoid(gi[..., :H] + gh[..., :H])
    z = _sigmoid(gi[..., H:2 * H] + gh[..., H:2 * H])
    n = np.tanh(gi[..., 2 * H:] + r * gh[..., 2 * H:])
    return (1.0 - z) * n + z * h
