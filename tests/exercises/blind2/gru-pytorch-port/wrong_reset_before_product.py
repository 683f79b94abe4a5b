"""Resets the state before the product, W_hn (r * h) + b_hn, as the course's candidate does."""
import numpy as np


def _sigmoid(a):
    return 0.5 * (1.0 + np.tanh(0.5 * a))


def torch_gru_step(x, h, weight_ih, weight_hh, bias_ih, bias_hh):
    H = h.shape[-1]
    W_ir, W_iz, W_in = weight_ih[:H], weight_ih[H:2 * H], weight_ih[2 * H:]
    W_hr, W_hz, W_hn = weight_hh[:H], weight_hh[H:2 * H], weight_hh[2 * H:]
    b_ir, b_iz, b_in = bias_ih[:H], bias_ih[H:2 * H], bias_ih[2 * H:]
    b_hr, b_hz, b_hn = bias_hh[:H], bias_hh[H:2 * H], bias_hh[2 * H:]
    r = _sigmoid(x @ W_ir.T + b_ir + h @ W_hr.T + b_hr)
    z = _sigmoid(x @ W_iz.T + b_iz + h @ W_hz.T + b_hz)
    n = np.tanh(x @ W_in.T + b_in + (r * h) @ W_hn.T + b_hn)
    return (1 - z) * n + z * h


RIGHT_DIAGNOSES = ("reset_before_product",)
