"""Test cases of the top-k indices.

Rows with equal values (integers drawn from a few values, repeated floats, infinities) tell
the statement's tie rule (the smaller index first) from a sort that breaks ties otherwise, and
k = 1, k = M and k in between tell a sort of the whole row from a partition that leaves the k
indices unsorted. Comparisons are exact.
"""

import numpy as np

from graders.cases import case

BATCH = {"x": 0}


@case(public=True, points=1, batch_axes=BATCH)
def worked_example(rng):
    # The statement's worked example: a tie in each row.
    return {
        "x": np.array([[0.3, 0.9, 0.1, 0.9, 0.5],
                       [2.0, -1.0, 2.0, 0.0, 3.0]]),
        "k": 3,
    }


@case(public=True, points=1)
def one_row(rng):
    return {"x": np.array([0.5, -2.0, 7.0, 1.5]), "k": 2}


@case(points=2, batch_axes=BATCH)
def distinct_values(rng):
    return {"x": rng.normal(size=(6, 9)), "k": 4}


@case(points=2, batch_axes=BATCH)
def only_the_largest(rng):
    return {"x": rng.normal(size=(5, 7)), "k": 1}


@case(points=2, batch_axes=BATCH)
def the_whole_row_sorted(rng):
    return {"x": rng.normal(size=(4, 6)), "k": 6}


@case(points=3, batch_axes=BATCH)
def many_ties_among_integers(rng):
    return {"x": rng.integers(-2, 3, size=(8, 12)), "k": 5}


@case(points=2, batch_axes=BATCH)
def every_value_equal(rng):
    # All tied: the first k indices, in order.
    return {"x": np.full((3, 7), 0.25), "k": 4}


@case(points=2, batch_axes=BATCH)
def ties_at_the_cut(rng):
    # The k-th and (k+1)-th largest are equal: the smaller index is in, the larger out.
    x = rng.normal(size=(5, 8))
    x[:, 6] = 10.0
    x[:, 2] = 9.0
    x[:, 5] = 9.0
    return {"x": x, "k": 2}


@case(points=2, batch_axes=BATCH)
def the_most_negative_integer(rng):
    # -x overflows on the most negative int64 (it negates to itself) and would rank it first;
    # the statement allows every signed integer. No ties, so that the order of equal values
    # (another case's matter) plays no part here.
    x = np.stack([rng.permutation(8) - 4 for _ in range(4)])
    x[:, 2] = np.iinfo(np.int64).min
    return {"x": x, "k": 6}


@case(points=2, batch_axes=BATCH)
def integers_beyond_what_floats_tell_apart(rng):
    # Integers near 2**62 that differ by 1: equal once converted to float64 (which keeps 53
    # bits), so a sort of the floats reads them as ties.
    x = 2**62 + rng.permutation(18).reshape(3, 6).astype(np.int64)
    return {"x": x, "k": 3}


@case(points=2)
def unbatched_long_row(rng):
    return {"x": rng.normal(size=200), "k": 10}


@case(points=2, batch_axes=BATCH)
def infinities_and_negatives(rng):
    x = -np.abs(rng.normal(size=(4, 6)))
    x[:, 1] = np.inf
    x[:, 4] = np.inf
    x[:, 0] = -np.inf
    return {"x": x, "k": 3}


@case(points=2, batch_axes=BATCH)
def wide_batch(rng):
    return {"x": rng.normal(size=(40, 30)), "k": 7}
