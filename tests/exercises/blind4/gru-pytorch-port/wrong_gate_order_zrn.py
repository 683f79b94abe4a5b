"""Mistake: reads the blocks in the order update, reset, new (z first) instead of PyTorch's reset, update, new."""
import numpy as np


def _sigmoid(q):
    return np.exp(-np.logaddexp(0.0, -q))


def torch_gru_step(x, h, weight_ih, weight_hh, bias_ih, bias_hh):
    H = h.shape[-1]
    gi = x @ weight_ih.T + bias_ih
    gh = h @ weight_hh.T + bias_hh
    z = _sigmoid(gi[..., :H] + gh[..., :H])
    r = _sigmoid(gi[..., H:2 * H] + gh[..., H:2 * H])
    n = np.tanh(gi[..., 2 * H:] + r * gh[..., 2 * H:])
    return (1 - z) * n + z * h


RIGHT_DIAGNOSES = ("gate_order_z_r_n",)
