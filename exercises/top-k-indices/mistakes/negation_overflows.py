"""The statement's stable sort of -x on integers: -x overflows on the most negative value,
which negates to itself and ranks first."""

import numpy as np

HINT = ("Your order is right except in rows that hold the most negative integer of the dtype, "
        "which you put first as if it were the largest: -x overflows there (in int64, "
        "-(-2**63) is -2**63 again). For integers sort ~x, which is -x - 1 and exact for every "
        "integer.")


def top_k_indices(x, k):
    return np.argsort(-x, axis=-1, kind="stable")[..., :k]
