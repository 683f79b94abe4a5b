"""Mistake: db averages dout over the batch instead of summing it."""


def affine_forward(x, w, b):
    return x @ w + b, (x, w)


def affine_backward(dout, cache):
    x, w = cache
    return dout @ w.T, x.T @ dout, dout.mean(axis=0)


RIGHT_DIAGNOSES = ("mean_db",)
