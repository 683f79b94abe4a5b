"""Sums dout over axis 1 for db (one value per example) instead of over the batch axis 0."""
import numpy as np


def affine_forward(x, w, b):
    out = x @ w + b
    return out, (x, w, b)


def affine_backward(dout, cache):
    x, w, b = cache
    dx = dout @ w.T
    dw = x.T @ dout
    db = np.sum(dout, axis=1)
    return dx, dw, db

RIGHT_DIAGNOSES = ("axis",)
