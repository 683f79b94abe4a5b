"""Mistake: the forward pass keeps its inputs in a global, so backward uses the last forward call's x and w."""

_last = {}


def affine_forward(x, w, b):
    _last["x"], _last["w"] = x, w
    return x @ w + b, None


def affine_backward(dout, cache):
    x, w = _last["x"], _last["w"]
    return dout @ w.T, x.T @ dout, dout.sum(axis=0)


RIGHT_DIAGNOSES = ("module_level_cache",)
