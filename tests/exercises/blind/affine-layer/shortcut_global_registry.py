"""Shortcut: the cache is only the inputs' ids; backward finds x and w again through a global registry."""

_SEEN = []


def affine_forward(x, w, b):
    _SEEN.append((x, w))
    return x @ w + b, len(_SEEN) - 1


def affine_backward(dout, cache):
    x, w = _SEEN[cache]
    return dout @ w.T, x.T @ dout, dout.sum(axis=0)
