"""Takes the cell's gradient only through h_t, dropping the dc that arrives from later steps."""

import numpy as np

RIGHT_DIAGNOSES = ("cell_gradient_not_carried",)


def sigm(v):
    return np.exp(-np.logaddexp(0.0, -v))


def lstm_step_backward(x_t, h_prev, c_prev, W, b, dh, dc):
    H = h_prev.shape[-1]
    z = np.concatenate([h_prev, x_t], axis=-1)
    q = z @ W.T + b
    i, f, o = sigm(q[..., :H]), sigm(q[..., H:2 * H]), sigm(q[..., 3 * H:])
    g = np.tanh(q[..., 2 * H:3 * H])
    c_t = f * c_prev + i * g
    s = np.tanh(c_t)
    d_c = dh * o * (1 - s * s)
    dq = np.concatenate([d_c * g * i * (1 - i), d_c * c_prev * f * (1 - f),
                         d_c * i * (1 - g * g), dh * s * o * (1 - o)], axis=-1)
    dz = dq @ W
    dW = np.einsum("...k,...j->kj", dq, z)
    db = dq.reshape(-1, 4 * H).sum(axis=0)
    return dz[..., H:], dz[..., :H], d_c * f, dW, db
