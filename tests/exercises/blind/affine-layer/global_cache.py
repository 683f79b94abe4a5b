"""Keeps the cache in a module-level global, so a second forward call overwrites the first one's inputs."""

RIGHT_DIAGNOSES = ("module_level_cache",)

_CACHE = {}


def affine_forward(x, w, b):
    _CACHE["x"], _CACHE["w"] = x, w
    return x @ w + b, None


def affine_backward(dout, cache):
    x, w = _CACHE["x"], _CACHE["w"]
    return dout @ w.T, x.T @ dout, dout.sum(axis=0)
