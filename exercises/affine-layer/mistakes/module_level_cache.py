"""The inputs kept in one module-level variable: a second forward call overwrites the first's."""


HINT = (
    "Your backward pass is right for the last forward call only: the inputs are kept in one "
    "variable of the module, so the next forward call overwrites them and an earlier "
    "layer's backward pass reads the later layer's x and w. Put what backward needs into "
    "the cache that forward returns, and read it from the cache argument."
)


SAVED = {}


def affine_forward(x, w, b):
    SAVED["x"], SAVED["w"] = x, w
    return x @ w + b, None


def affine_backward(dout, cache):
    x, w = SAVED["x"], SAVED["w"]
    return dout @ w.T, x.T @ dout, dout.sum(axis=0)
