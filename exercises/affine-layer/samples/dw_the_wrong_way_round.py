# expect: verdict=failed score=2 diagnosis=transposed_dw
import numpy as np


def affine_forward(x, w, b):
    out = x.dot(w) + b
    return out, (x, w)


def affine_backward(dout, cache):
    x, w = cache
    dx = dout.dot(w.T)
    dw = dout.T.dot(x)
    db = np.sum(dout, axis=0)
    return dx, dw, db
