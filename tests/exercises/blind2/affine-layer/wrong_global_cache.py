"""Keeps the forward inputs in a module-level variable, so a second layer's forward overwrites the first's."""
import numpy as np

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
    db = np.sum(dout, axis=0)
    return dx, dw, db

RIGHT_DIAGNOSES = ("module_level_cache",)
