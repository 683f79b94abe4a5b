"""Computes dw as dout.T @ x, the transpose of the weight gradient."""

RIGHT_DIAGNOSES = ("transposed_dw",)


def affine_forward(x, w, b):
    return x @ w + b, (x, w)


def affine_backward(dout, cache):
    x, w = cache
    return dout @ w.T, dout.T @ x, dout.sum(axis=0)
