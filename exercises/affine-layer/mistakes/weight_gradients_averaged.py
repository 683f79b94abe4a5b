"""dw and db divided by the batch size, dx left alone: a mean over the batch taken inside the
layer, for the parameters only."""

HINT = (
    "Your dw and db are N times too small (N the batch size), while dx is right: the "
    "parameters' gradients were divided by the number of examples. dout is already the "
    "gradient of the loss with respect to out, averaging included if the loss averages; the "
    "layer adds it up over the batch without dividing: dw = x.T @ dout, db = the sum of dout "
    "over the rows."
)


def affine_forward(x, w, b):
    return x @ w + b, (x, w)


def affine_backward(dout, cache):
    x, w = cache
    batch = len(x)
    return dout @ w.T, (x.T @ dout) * (1.0 / batch), dout.mean(axis=0)
