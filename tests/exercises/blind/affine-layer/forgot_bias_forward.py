"""Leaves the bias out of the forward output (out = x @ w)."""

RIGHT_DIAGNOSES = ("drop_term",)


def affine_forward(x, w, b):
    return x @ w, (x, w)


def affine_backward(dout, cache):
    x, w = cache
    return dout @ w.T, x.T @ dout, dout.sum(axis=0)
