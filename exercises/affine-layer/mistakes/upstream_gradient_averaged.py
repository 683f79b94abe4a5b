"""dout divided by the batch size (in place) before the products: every gradient N times too
small."""


HINT = (
    "Your gradients are all N times too small (N the batch size): dout was divided by the "
    "number of examples. dout is already the gradient of the loss with respect to out, "
    "averaging included if the loss averages; the layer only passes it back: dx = dout @ "
    "w.T, dw = x.T @ dout, db = the sum of dout over the rows. (Dividing dout in place "
    "would also change the caller's array.)"
)


def affine_forward(x, w, b):
    return x @ w + b, (x, w)


def affine_backward(dout, cache):
    x, w = cache
    dout /= x.shape[0]
    return dout @ w.T, x.T @ dout, dout.sum(axis=0)
