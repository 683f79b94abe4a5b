def affine_forward(x, w, b):
    """x: (N, D), w: (D, M), b: (M,). Return (out, cache): out of shape (N, M), and
    whatever affine_backward will need."""
    out = None
    cache = None
    return out, cache


def affine_backward(dout, cache):
    """dout: (N, M), the gradient of the loss with respect to out; cache: what
    affine_forward returned. Return (dx, dw, db), of the shapes of x, w and b."""
    dx, dw, db = None, None, None
    return dx, dw, db
