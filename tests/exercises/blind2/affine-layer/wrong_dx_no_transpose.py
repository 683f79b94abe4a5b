"""Forgets to transpose w in dx: dout @ w instead of dout @ w.T (raises unless D == M)."""


def affine_forward(x, w, b):
    return x.dot(w) + b, (x, w)


def affine_backward(dout, cache):
    x, w = cache
    dx = dout.dot(w)
    dw = x.T.dot(dout)
    db = dout.sum(0)
    return dx, dw, db


RIGHT_DIAGNOSES = ("transpose",)
