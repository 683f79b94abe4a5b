"""Cases for pairwise-distances. Distances are compared within rtol=1e-7 and atol=1e-6 (the
statement says so): the expansion |x|^2 - 2 x.y + |y|^2 of centred points of spread about 1
is within about 3e-7 of the exact distance, even for two equal points, whose squared distance
rounds to about 1e-14. Points far from the origin (1e4) are where an expansion of uncentred
points loses that accuracy: about 1e-4 for two equal points.
"""

import numpy as np

from graders.cases import case

TOLERANCE = {"rtol": 1e-7, "atol": 1e-6}


def with_copies(rng, X, copies, m, offset=0.0):
    """Y holding `copies` rows of X (some moved by 1e-3) and m - copies new points."""
    near = X[:copies] + np.where(np.arange(copies)[:, None] % 2, 1e-3, 0.0) * rng.normal(
        size=(copies, X.shape[1])
    )
    fresh = rng.normal(size=(m - copies, X.shape[1])) + offset
    return rng.permutation(np.vstack([near, fresh]))


# --- public ---------------------------------------------------------------------------------


@case(public=True, points=1, **TOLERANCE)
def worked_example(rng):
    return {"X": np.array([[0.0, 0.0], [3.0, 4.0], [1.0, 1.0]]),
            "Y": np.array([[0.0, 0.0], [6.0, 8.0]])}


@case(public=True, points=1, **TOLERANCE)
def random_points(rng):
    return {"X": rng.normal(size=(4, 3)), "Y": rng.normal(size=(5, 3))}


# --- hidden ---------------------------------------------------------------------------------


@case(points=2, **TOLERANCE)
def many_points(rng):
    return {"X": rng.normal(size=(200, 16)), "Y": rng.normal(size=(150, 16))}


@case(points=2, **TOLERANCE)
def equal_and_near_points(rng):
    X = rng.normal(size=(60, 8))
    return {"X": X, "Y": with_copies(rng, X, 20, 50)}


@case(points=2, **TOLERANCE)
def distances_to_itself(rng):
    X = rng.normal(size=(40, 5))
    return {"X": X, "Y": X.copy()}


@case(points=3, **TOLERANCE)
def far_from_the_origin(rng):
    # Spread 1 around 1e4 (coordinates in metres from a distant origin, say).
    X = rng.normal(size=(80, 4)) + 1e4
    return {"X": X, "Y": with_copies(rng, X, 30, 40, offset=1e4)}


@case(points=2, **TOLERANCE)
def far_apart_sets(rng):
    # X around the origin, Y around 50 in every coordinate: no cancellation, large distances.
    return {"X": rng.normal(size=(30, 6)), "Y": rng.normal(size=(20, 6)) + 50.0}


@case(points=2, **TOLERANCE)
def one_dimension(rng):
    return {"X": rng.normal(size=(25, 1)), "Y": rng.normal(size=(35, 1))}


@case(points=1, **TOLERANCE)
def one_point_each(rng):
    return {"X": rng.normal(size=(1, 7)), "Y": rng.normal(size=(1, 7))}


@case(points=2, **TOLERANCE)
def wide_points(rng):
    X = rng.normal(size=(300, 50))
    return {"X": X, "Y": with_copies(rng, X, 20, 200)}


@case(points=2, **TOLERANCE)
def one_point_against_many(rng):
    # n = 1: the table is one row, of shape (1, m), which a squeeze would make (m,).
    return {"X": rng.normal(size=(1, 6)), "Y": rng.normal(size=(40, 6))}
