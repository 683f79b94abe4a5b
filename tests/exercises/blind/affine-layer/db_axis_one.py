"""Sums the bias gradient over axis 1 (the outputs) instead of axis 0 (the batch)."""

RIGHT_DIAGNOSES = ("axis",)


def affine_forward(x, w, b):
    return x @ w + b, (x, w)


def affine_backward(dout, cache):
    x, w = cache
    return dout @ w.T, x.T @ dout, dout.sum(axis=1)
