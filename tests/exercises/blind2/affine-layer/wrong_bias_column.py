"""Adds the bias as a column (b[:, None]), along the examples instead of the outputs (raises unless N == M)."""


def affine_forward(x, w, b):
    out = x @ w + b[:, None]
    return out, (x, w)


def affine_backward(dout, cache):
    x, w = cache
    return dout @ w.T, x.T @ dout, dout.sum(axis=0)


RIGHT_DIAGNOSES = ("vector_as_column",)
