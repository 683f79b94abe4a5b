"""Returns the gradients in the order (dw, dx, db) instead of (dx, dw, db)."""
import numpy as np


def affine_forward(x, w, b):
    out = np.dot(x, w) + b
    return out, (x, w)


def affine_backward(dout, cache):
    x, w = cache
    dx = np.dot(dout, w.T)
    dw = np.dot(x.T, dout)
    db = dout.sum(axis=0)
    return dw, dx, db


RIGHT_DIAGNOSES = ("swap_gradients",)
