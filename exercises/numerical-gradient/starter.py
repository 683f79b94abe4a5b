import numpy as np


def numerical_gradient(f, x, h=1e-5):
    """Return the gradient of the scalar function f at x, by centred differences.

    Args:
        f: a function of one array of x's shape that returns a number.
        x: the point, an array of any shape (integers allowed).
        h: the step.

    Returns:
        float64 of the shape of x: element i is (f(x + h e_i) - f(x - h e_i)) / (2 h), where
        e_i is 1 at element i and 0 elsewhere. x is unchanged after the call.
    """
    # TODO: for each element of (a float64 copy of) x, move it by +h and by -h, call f at
    # both points, and put the element back before the next one.
    return np.zeros(np.shape(x))
