"""Affine layer computing dw as dout.T @ x, the transpose of the right gradient."""
import numpy as np


def affine_forward(x, w, b):
    out = np.dot(x, w) + b
    cache = (x, w, b)
    return out, cache


def affine_backward(dout, cache):
    x, w, b = cache
    dx = np.dot(dout, w.T)
    dw = np.dot(dout.T, x)
    db = np.sum(dout, axis=0)
    return dx, dw, db


RIGHT_DIAGNOSES = ("transposed_dw",)
