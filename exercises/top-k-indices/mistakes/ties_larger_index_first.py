"""An ascending stable sort reversed: the right order of values, but equal values with the
larger index first."""

import numpy as np

HINT = ("Your order is right except between equal values: you put the larger index first. "
        "Reversing an ascending sort also reverses the order of ties; the statement asks for "
        "equal values in increasing order of index, which a stable sort of -x (of ~x for integers) "
        "gives.")


def top_k_indices(x, k):
    return np.argsort(x, axis=-1, kind="stable")[..., ::-1][..., :k]
