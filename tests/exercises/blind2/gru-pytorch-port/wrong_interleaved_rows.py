"""Reads the gates' rows as interleaved (every third row: [0::3], [1::3], [2::3]) instead of consecutive blocks of H."""
import numpy as np


def _sigmoid(a):
    return 0.5 * (1.0 + np.tanh(0.5 * a))


def torch_gru_step(x, h, weight_ih, weight_hh, bias_ih, bias_hh):
    W_ir, W_iz, W_in = weight_ih[0::3], weight_ih[1::3], weight_ih[2::3]
    W_hr, W_hz, W_hn = weight_hh[0::3], weight_hh[1::3], weight_hh[2::3]
    b_ir, b_iz, b_in = bias_ih[0::3], bias_ih[1::3], bias_ih[2::3]
    b_hr, b_hz, b_hn = bias_hh[0::3], bias_hh[1::3], bias_hh[2::3]
    r = _sigmoid(x @ W_ir.T + b_ir + h @ W_hr.T + b_hr)
    z = _sigmoid(x @ W_iz.T + b_iz + h @ W_hz.T + b_hz)
    n = np.tanh(x @ W_in.T + b_in + r * (h @ W_hn.T + b_hn))
    return (1 - z) * n + z * h

RIGHT_DIAGNOSES = ("blocks_interleaved",)
