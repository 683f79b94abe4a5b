"""Uses the sigmoid's derivative g * (1 - g) for the candidate g too, though g is a tanh."""

import numpy as np

RIGHT_DIAGNOSES = ("candidate_derivative_as_sigmoid",)


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
    d_c = dc + dh * o * (1 - s * s)
    acts = np.concatenate([i, f, g, o], axis=-1)
    d_acts = np.concatenate([d_c * g, d_c * c_prev, d_c * i, dh * s], axis=-1)
    dq = d_acts * acts * (1 - acts)
    dz = dq @ W
    dW = np.einsum("...k,...j->kj", dq, z)
    db = dq.reshape(-1, 4 * H).sum(axis=0)
    return dz[..., H:], dz[..., :H], d_c * f, dW, db
