# expect: verdict=passed score=16 diagnosis=none
"""Another way to the same numbers: a dict as the cache, einsum for the products."""

import numpy as np


def affine_forward(x, w, b):
    return np.einsum("nd,dm->nm", x, w) + b, {"input": x, "weights": w}


def affine_backward(dout, cache):
    x, w = cache["input"], cache["weights"]
    return (
        np.einsum("nm,dm->nd", dout, w),
        np.einsum("nd,nm->dm", x, dout),
        np.einsum("nm->m", dout),
    )
