"""Affine layer summing dout over axis 1 (the outputs) for db instead of over the batch."""
import numpy as np


def affine_forward(x, w, b):
    out = x @ w + b
    return out, (x, w)


def affine_backward(dout, cache):
    x, w = cache
    dx = dout @ w.T
    dw = x.T @ dout
    db = np.sum(dout, axis=1)
    return dx, dw, db


RIGHT_DIAGNOSES = ("axis",)
