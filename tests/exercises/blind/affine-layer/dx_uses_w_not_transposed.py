"""Writes dx as dout @ w.T but with w reshaped to (M, D) instead of transposed."""

RIGHT_DIAGNOSES = ("reshape_for_transpose",)


def affine_forward(x, w, b):
    return x @ w + b, (x, w)


def affine_backward(dout, cache):
    x, w = cache
    return dout @ w.reshape(w.shape[1], w.shape[0]), x.T @ dout, dout.sum(axis=0)
