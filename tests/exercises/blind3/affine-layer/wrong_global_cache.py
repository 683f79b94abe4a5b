"""Affine layer keeping x and w in module-level globals instead of in the returned cache."""

_saved = {}


def affine_forward(x, w, b):
    _saved["x"] = x
    _saved["w"] = w
    out = x @ w + b
    return out, None


def affine_backward(dout, cache):
    x = _saved["x"]
    w = _saved["w"]
    dx = dout @ w.T
    dw = x.T @ dout
    db = dout.sum(axis=0)
    return dx, dw, db


RIGHT_DIAGNOSES = ("module_level_cache",)
