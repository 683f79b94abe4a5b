"""Computes dw as dout.T @ x, the transpose of the right gradient (shape (M, D))."""


def affine_forward(x, w, b):
    out = x @ w + b
    cache = (x, w, b)
    return out, cache


def affine_backward(dout, cache):
    x, w, b = cache
    dx = dout @ w.T
    dw = dout.T @ x
    db = dout.sum(axis=0)
    return dx, dw, db


RIGHT_DIAGNOSES = ("transposed_dw",)
