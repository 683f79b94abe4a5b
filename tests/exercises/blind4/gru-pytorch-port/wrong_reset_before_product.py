"""Mistake: resets the state before the product, W_hn (r * h) + b_hn, as the course's candidate does."""
import numpy as np


def _sigmoid(q):
    return np.exp(-np.logaddexp(0.0, -q))


def torch_gru_step(x, h, weight_ih, weight_hh, bias_ih, bias_hh):
    H = h.shape[-1]
    gi = x @ weight_ih.T + bias_ih
    gh = h @ weight_hh.T + bias_hh
    r = _sigmoid(gi[..., :H] + gh[..., :H])
    z = _sigmoid(gi[..., H:2 * H] + gh[..., H:2 * H])
    n = np.tanh(gi[..., 2 * H:] + (r * h) @ weight_hh[2 * H:].T + bias_hh[2 * H:])
    return (1 - z) * n + z * h


RIGHT_DIAGNOSES = ("reset_before_product",)
