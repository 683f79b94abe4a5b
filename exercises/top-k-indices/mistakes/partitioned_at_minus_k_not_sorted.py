"""np.argpartition at -k on the values as given, its last k positions kept: the right k
indices in the order the partition leaves them (not by value)."""

HINT = ("Your indices are not in the required order: the largest value first, and of equal "
        "values the smaller index first. Sort by decreasing value with a stable sort, which "
        "keeps equal values in index order, and keep the first k.")


def top_k_indices(x, k):
    return x.argpartition(-k, axis=-1)[..., -k:]
