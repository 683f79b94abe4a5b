"""Mistake: dw computed as dout.T @ x, the transpose of the right gradient (shape (M, D))."""


def affine_forward(x, w, b):
    return x @ w + b, (x, w)


def affine_backward(dout, cache):
    x, w = cache
    return dout @ w.T, dout.T @ x, dout.sum(axis=0)


RIGHT_DIAGNOSES = ("transposed_dw",)
