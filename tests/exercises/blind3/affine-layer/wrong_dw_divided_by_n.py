"""Affine layer that divides dw and db by the batch size N, as if the loss were a mean inside the layer."""


def affine_forward(x, w, b):
    out = x @ w + b
    return out, (x, w)


def affine_backward(dout, cache):
    x, w = cache
    n = x.shape[0]
    dx = dout @ w.T
    dw = x.T @ dout / n
    db = dout.sum(axis=0) / n
    return dx, dw, db


RIGHT_DIAGNOSES = ("weight_gradients_averaged",)
