"""Computes the products in float32 to save memory and time, then casts back."""

import numpy as np

RIGHT_DIAGNOSES = ("single_precision",)


def affine_forward(x, w, b):
    out = x.astype(np.float32) @ w.astype(np.float32) + b.astype(np.float32)
    return out.astype(np.float64), (x, w)


def affine_backward(dout, cache):
    x, w = cache
    d32 = dout.astype(np.float32)
    dx = d32 @ w.astype(np.float32).T
    dw = x.astype(np.float32).T @ d32
    return dx.astype(np.float64), dw.astype(np.float64), dout.sum(axis=0)
