"""x itself moved and never put back: the caller's x comes back changed, and the gradient is
taken at a point that drifts."""

import numpy as np

HINT = ("You move the elements of x itself and never put them back: the caller's x comes "
        "back changed, and each later element's difference is taken at a point that is no "
        "longer x. Work on a copy (np.array(x, dtype=np.float64)), and put each element back "
        "from its saved value once f has been called at x + h e_i and x - h e_i.")


def numerical_gradient(f, x, h=1e-5):
    grad = np.zeros(x.shape)
    for index in np.ndindex(x.shape):
        kept = x[index]
        x[index] = kept + h
        above = f(x)
        x[index] = kept - h
        below = f(x)
        grad[index] = (above - below) / (2 * h)
    return grad
