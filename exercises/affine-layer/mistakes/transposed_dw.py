HINT = (
    "The gradient of w has the shape of w, (D, M): it is x.T @ dout. dout.T @ x is its transpose."
)


def affine_forward(x, w, b):
    return x @ w + b, (x, w)


def affine_backward(dout, cache):
    x, w = cache
    return dout @ w.T, dout.T @ x, dout.sum(axis=0)
