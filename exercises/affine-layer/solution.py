def affine_forward(x, w, b):
    out = x @ w + b
    cache = (x, w)
    return out, cache


def affine_backward(dout, cache):
    x, w = cache
    dx = dout @ w.T
    dw = x.T @ dout
    db = dout.sum(axis=0)
    return dx, dw, db
