"""Slices the blocks with gi[:H] (the first axis), which only works for one example, not a batch."""

import numpy as np

RIGHT_DIAGNOSES = ("first_axis_slice",)


def sigmoid(v):
    return np.exp(-np.logaddexp(0.0, -v))


def torch_gru_step(x, h, weight_ih, weight_hh, bias_ih, bias_hh):
    H = h.shape[-1]
    gi = x @ weight_ih.T + bias_ih
    gh = h @ weight_hh.T + bias_hh
    r = sigmoid(gi[:H] + gh[:H])
    z = sigmoid(gi[H:2 * H] + gh[H:2 * H])
    n = np.tanh(gi[2 * H:] + r * gh[2 * H:])
    return (1 - z) * n + z * h
