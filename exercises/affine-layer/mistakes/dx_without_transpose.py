HINT = (
    "dx pulls dout back through w: each row of dout (M values) times w transposed (M, D) gives "
    "a row of D values, so dx = dout @ w.T."
)


def affine_forward(x, w, b):
    return x @ w + b, (x, w)


def affine_backward(dout, cache):
    x, w = cache
    return w @ dout.T, x.T @ dout, dout.sum(axis=0)
