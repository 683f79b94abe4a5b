# expect: verdict=failed score=20 diagnosis=partition_not_sorted
"""A learner who sorts the negated values with an unstable sort: the right indices, but equal
values in whatever order the sort leaves them, and the hint must not name a function this code
never called. (Heapsort, rather than the default kind, whose order of ties depends on the
processor's vector instructions.)"""

import numpy as np


def top_k_indices(x, k):
    return np.argsort(-x, axis=-1, kind="heapsort")[..., :k]
