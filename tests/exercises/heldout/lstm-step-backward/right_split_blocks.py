"""A correct alternative: four named weight blocks, each split into state and input columns."""

import numpy as np


def sigm(v):
    return 0.5 * (1.0 + np.tanh(0.5 * v))


def lstm_step_backward(x_t, h_prev, c_prev, W, b, dh, dc):
    H = h_prev.shape[-1]
    Wi, Wf, Wg, Wo = np.split(W, 4, axis=0)
    bi, bf, bg, bo = np.split(b, 4)

    def pre(Wk, bk):
        return h_prev @ Wk[:, :H].T + x_t @ Wk[:, H:].T + bk

    i, f, g, o = sigm(pre(Wi, bi)), sigm(pre(Wf, bf)), np.tanh(pre(Wg, bg)), sigm(pre(Wo, bo))
    c_t = f * c_prev + i * g
    s = np.tanh(c_t)
    d_c = dc + dh * o * (1 - s * s)
    grads = [(Wi, d_c * g * i * (1 - i)), (Wf, d_c * c_prev * f * (1 - f)),
             (Wg, d_c * i * (1 - g * g)), (Wo, dh * s * o * (1 - o))]
    dx = sum(gk @ Wk[:, H:] for Wk, gk in grads)
    dhp = sum(gk @ Wk[:, :H] for Wk, gk in grads)
    hs, xs = np.atleast_2d(h_prev), np.atleast_2d(x_t)
    dW = np.vstack([np.hstack([np.atleast_2d(gk).T @ hs, np.atleast_2d(gk).T @ xs])
                    for _, gk in grads])
    db = np.concatenate([np.atleast_2d(gk).sum(axis=0) for _, gk in grads])
    return dx, dhp, d_c * f, dW, db
