"""A correct alternative: a loop over the rows, summing np.outer products into dW."""

import numpy as np


def _s(a):
    return np.exp(-np.logaddexp(0.0, -a))


def lstm_step_backward(x_t, h_prev, c_prev, W, b, dh, dc):
    H = h_prev.shape[-1]
    X, Hp, Cp = np.atleast_2d(x_t), np.atleast_2d(h_prev), np.atleast_2d(c_prev)
    DH, DC = np.atleast_2d(dh), np.atleast_2d(dc)
    dX, dHp, dCp = np.empty_like(X), np.empty_like(Hp), np.empty_like(Cp)
    dW, db = np.zeros_like(W), np.zeros_like(b)
    for n in range(X.shape[0]):
        v = np.concatenate([Hp[n], X[n]])
        pre = W @ v + b
        i, f, o = _s(pre[:H]), _s(pre[H:2 * H]), _s(pre[3 * H:])
        g = np.tanh(pre[2 * H:3 * H])
        c = f * Cp[n] + i * g
        tc = np.tanh(c)
        dct = DC[n] + DH[n] * o * (1.0 - tc**2)
        dpre = np.concatenate([dct * g * i * (1.0 - i), dct * Cp[n] * f * (1.0 - f),
                               dct * i * (1.0 - g**2), DH[n] * tc * o * (1.0 - o)])
        dv = W.T @ dpre
        dHp[n], dX[n], dCp[n] = dv[:H], dv[H:], dct * f
        dW += np.outer(dpre, v)
        db += dpre
    if x_t.ndim == 1:
        return dX[0], dHp[0], dCp[0], dW, db
    return dX, dHp, dCp, dW, db
