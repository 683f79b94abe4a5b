# expect: verdict=failed score=20 diagnosis=none
"""A learner who sorts the negated values with an unstable sort: the right indices, but equal
values in whatever order the sort leaves them, and the hint must not name a function this code
never called. (Heapsort, rather than the default kind, whose order of ties depends on the
processor's vector instructions.) Its -x is a second slip: the most negative integer of int8
or int64 negates to itself, and once the cases hold both dtypes no one mistake gives its
outputs, so no hint is shown rather than one naming half of what went wrong."""

import numpy as np


def top_k_indices(x, k):
    return np.argsort(-x, axis=-1, kind="heapsort")[..., :k]
