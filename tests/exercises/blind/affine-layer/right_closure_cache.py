"""Correct: the cache is a closure that computes the gradients, the bias folded into an augmented matrix."""

import numpy as np


def affine_forward(x, w, b):
    xa = np.hstack([x, np.ones((x.shape[0], 1))])
    wa = np.vstack([w, b[None, :]])
    out = xa @ wa

    def backward(dout):
        dwa = xa.T @ dout
        return dout @ w.T, dwa[:-1], dwa[-1]

    return out, backward


def affine_backward(dout, cache):
    return cache(dout)
