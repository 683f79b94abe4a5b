"""Correct: einsum everywhere, and the cache is a closure that computes the gradients."""
import numpy as np


def affine_forward(x, w, b):
    out = np.einsum("nd,dm->nm", x, w) + b

    def backward(dout):
        return (np.einsum("nm,dm->nd", dout, w), np.einsum("nd,nm->dm", x, dout),
                np.einsum("nm->m", dout))

    return out, backward


def affine_backward(dout, cache):
    return cache(dout)
