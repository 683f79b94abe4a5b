"""Affine layer whose bias gradient averages dout over the batch instead of summing it."""
import numpy as np


def affine_forward(x, w, b):
    out = x @ w + b
    return out, (x, w, b)


def affine_backward(dout, cache):
    x, w, b = cache
    dx = dout @ w.T
    dw = x.T @ dout
    db = np.mean(dout, axis=0)
    return dx, dw, db


RIGHT_DIAGNOSES = ("mean_db",)
