# expect: verdict=passed score=19 diagnosis=none
"""Another correct method: the parameters split into named blocks with np.split, the sigmoid
written with tanh, each product done block by block."""

import numpy as np


def torch_gru_step(x, h, weight_ih, weight_hh, bias_ih, bias_hh):
    W_ir, W_iz, W_in = np.split(weight_ih, 3)
    W_hr, W_hz, W_hn = np.split(weight_hh, 3)
    b_ir, b_iz, b_in = np.split(bias_ih, 3)
    b_hr, b_hz, b_hn = np.split(bias_hh, 3)

    def sigmoid(a):
        return 0.5 * (1.0 + np.tanh(0.5 * a))

    r = sigmoid(x @ W_ir.T + b_ir + h @ W_hr.T + b_hr)
    z = sigmoid(x @ W_iz.T + b_iz + h @ W_hz.T + b_hz)
    n = np.tanh(x @ W_in.T + b_in + r * (h @ W_hn.T + b_hn))
    return h + (1.0 - z) * (n - h)
