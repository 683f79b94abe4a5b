"""Affine layer that casts everything to float32 to save memory, losing precision."""
import numpy as np


def affine_forward(x, w, b):
    x32 = x.astype(np.float32)
    w32 = w.astype(np.float32)
    out = x32 @ w32 + b.astype(np.float32)
    return out, (x32, w32)


def affine_backward(dout, cache):
    x32, w32 = cache
    d32 = dout.astype(np.float32)
    dx = d32 @ w32.T
    dw = x32.T @ d32
    db = d32.sum(axis=0)
    return dx, dw, db


RIGHT_DIAGNOSES = ("single_precision",)
