"""Divides dout by the batch size in place before the products, changing the caller's dout and the gradients."""

RIGHT_DIAGNOSES = ("upstream_gradient_averaged",)


def affine_forward(x, w, b):
    return x @ w + b, (x, w)


def affine_backward(dout, cache):
    x, w = cache
    dout /= x.shape[0]
    return dout @ w.T, x.T @ dout, dout.sum(axis=0)
