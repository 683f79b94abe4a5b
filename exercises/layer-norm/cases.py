"""Test cases of the layer normalisation.

Rows with a large common offset (1e6 plus noise) tell a variance computed from centred
values from E[x^2] - E[x]^2, which loses every digit there; a constant row and a larger eps
tell where eps enters; inputs of three axes check that only the last axis is normalised.
"""

import numpy as np

from graders.cases import case

BATCH = {"x": 0}


def layer(rng, D):
    return {"gamma": 1.0 + 0.5 * rng.normal(size=D), "beta": 0.5 * rng.normal(size=D)}


@case(public=True, points=1, batch_axes=BATCH)
def worked_example(rng):
    # The statement's worked example.
    return {
        "x": np.array([[1.0, 2.0, 3.0, 6.0],
                       [-1.0, 0.0, 1.0, 0.0]]),
        "gamma": np.array([1.0, 0.5, 2.0, 1.0]),
        "beta": np.array([0.0, 0.1, -0.1, 0.0]),
        "eps": 1e-5,
    }


@case(public=True, points=1)
def one_vector_with_a_large_offset(rng):
    # One vector: 1e6 plus small values. E[x^2] - E[x]^2 cancels to rounding noise here.
    return {
        "x": 1e6 + np.array([0.3, -1.1, 2.7, -1.6, 0.2]),
        "gamma": np.ones(5),
        "beta": np.zeros(5),
        "eps": 1e-5,
    }


@case(points=2, batch_axes=BATCH)
def batch_of_vectors(rng):
    return {"x": rng.normal(size=(6, 8)), **layer(rng, 8), "eps": 1e-5}


@case(points=2, batch_axes=BATCH)
def three_axes(rng):
    # (batch, time, features): each of the 4 x 3 vectors is normalised on its own.
    return {"x": rng.normal(size=(4, 3, 5)), **layer(rng, 5), "eps": 1e-5}


@case(points=2)
def one_vector(rng):
    return {"x": 3.0 * rng.normal(size=7) + 2.0, **layer(rng, 7), "eps": 1e-5}


@case(points=3, batch_axes=BATCH)
def large_offsets(rng):
    # Each row 1e6 (or -1e6) plus noise of size 1: the variance is about 1.
    offsets = np.array([[1e6], [-1e6], [3e6], [5e5]])
    return {"x": offsets + rng.normal(size=(4, 6)), **layer(rng, 6), "eps": 1e-5}


@case(points=2, batch_axes=BATCH)
def large_values(rng):
    return {"x": 1e6 * rng.normal(size=(5, 4)), **layer(rng, 4), "eps": 1e-5}


@case(points=2, batch_axes=BATCH)
def a_constant_row(rng):
    # A variance of 0: the output is beta, and only eps keeps 0 / 0 away.
    x = rng.normal(size=(3, 6))
    x[1] = 4.0
    return {"x": x, **layer(rng, 6), "eps": 1e-5}


@case(points=2, batch_axes=BATCH)
def a_large_eps(rng):
    # eps = 0.5 against variances near 0.25: where eps enters changes every value.
    return {"x": 0.5 * rng.normal(size=(4, 5)), **layer(rng, 5), "eps": 0.5}


@case(points=2, batch_axes=BATCH)
def one_feature(rng):
    # D = 1: every vector equals its mean, so the output is beta.
    return {"x": rng.normal(size=(5, 1)), **layer(rng, 1), "eps": 1e-5}


@case(points=2, batch_axes=BATCH)
def two_features(rng):
    return {"x": rng.normal(size=(6, 2)), **layer(rng, 2), "eps": 1e-3}


@case(points=2, batch_axes=BATCH)
def batch_of_one(rng):
    return {"x": rng.normal(size=(1, 9)), **layer(rng, 9), "eps": 1e-5}


@case(points=2)
def one_vector_with_a_negative_offset(rng):
    # One vector (D,) around -3e6 with a spread of about 1: the hidden counterpart of the
    # public large-offset vector, on the other side of zero.
    return {"x": -3e6 + rng.normal(size=8), **layer(rng, 8), "eps": 1e-5}
