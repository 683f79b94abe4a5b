"""Correct: einsum for every product and a dict as the cache."""

import numpy as np


def affine_forward(x, w, b):
    out = np.einsum("nd,dm->nm", x, w) + b
    return out, {"x": x, "w": w}


def affine_backward(dout, cache):
    x, w = cache["x"], cache["w"]
    dx = np.einsum("nm,dm->nd", dout, w)
    dw = np.einsum("nd,nm->dm", x, dout)
    db = np.einsum("nm->m", dout)
    return dx, dw, db
