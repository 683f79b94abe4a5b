"""Averages dout over the batch for db (np.mean) instead of summing it: db is N times too small."""
import numpy as np


def affine_forward(x, w, b):
    out = x @ w + b
    return out, (x, w)


def affine_backward(dout, cache):
    x, w = cache
    dx = dout @ w.T
    dw = x.T @ dout
    db = np.mean(dout, axis=0)
    return dx, dw, db


RIGHT_DIAGNOSES = ("mean_db",)
