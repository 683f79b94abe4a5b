"""Cases for batchnorm-forward: x (N, D); gamma, beta, running_mean, running_var (D,).

No case is batched: the statistics are taken over the batch axis, so a single example alone
would be normalised by its own mean (itself) and a variance of zero; the batch's output is no
combination of its examples' outputs, and no batch rule of [[outputs]] can state one.
"""

import numpy as np

from graders.cases import case


def features(rng, D):
    return {"gamma": rng.uniform(0.5, 2.0, size=D), "beta": rng.normal(size=D),
            "running_mean": rng.normal(size=D), "running_var": rng.uniform(0.5, 2.0, size=D)}


# --- public ---------------------------------------------------------------------------------


@case(public=True, points=1)
def worked_example(rng):
    return {"x": np.array([[1.0, 10.0], [2.0, 20.0], [6.0, 30.0]]),
            "gamma": np.array([1.0, 2.0]), "beta": np.array([0.0, -1.0]),
            "running_mean": np.zeros(2), "running_var": np.ones(2),
            "momentum": 0.9, "eps": 1e-5}


@case(public=True, points=1)
def random_batch(rng):
    return {"x": rng.normal(loc=2.0, scale=3.0, size=(8, 3)), **features(rng, 3),
            "momentum": 0.9, "eps": 1e-5}


# --- hidden ---------------------------------------------------------------------------------


@case(points=2)
def a_larger_batch(rng):
    return {"x": rng.normal(size=(64, 10)), **features(rng, 10), "momentum": 0.9, "eps": 1e-5}


@case(points=2)
def features_of_different_scales(rng):
    scales = np.array([1e-2, 1.0, 1e2, 1e4, 3.0])
    return {"x": rng.normal(size=(32, 5)) * scales + rng.normal(size=5), **features(rng, 5),
            "momentum": 0.8, "eps": 1e-5}


@case(points=2)
def more_features_than_examples(rng):
    return {"x": rng.normal(size=(4, 9)), **features(rng, 9), "momentum": 0.95, "eps": 1e-5}


@case(points=2)
def tiny_variances(rng):
    # Standard deviations near sqrt(eps): where eps must sit inside the square root.
    spreads = np.array([1e-3, 3e-3, 1e-2, 1.0])
    return {"x": rng.normal(size=(16, 4)) * spreads, **features(rng, 4),
            "momentum": 0.9, "eps": 1e-5}


@case(points=2)
def a_constant_feature(rng):
    x = rng.normal(size=(10, 3))
    x[:, 1] = 4.0
    return {"x": x, **features(rng, 3), "momentum": 0.9, "eps": 1e-3}


@case(points=3)
def far_from_zero(rng):
    # Mean 1e6, spread 1 (raw readings of a sensor, say): the variance as E[x^2] - E[x]^2
    # keeps about four digits.
    return {"x": rng.normal(size=(50, 4)) + 1e6, **features(rng, 4),
            "momentum": 0.9, "eps": 1e-5}


@case(points=2)
def no_momentum(rng):
    # momentum 0: the running averages become the batch's statistics.
    return {"x": rng.normal(size=(12, 3)), **features(rng, 3), "momentum": 0.0, "eps": 1e-5}


@case(points=2)
def two_examples(rng):
    return {"x": rng.normal(size=(2, 6)), **features(rng, 6), "momentum": 0.5, "eps": 1e-2}


@case(points=2)
def momentum_close_to_one(rng):
    # Almost all of the old averages, but not all: the new batch still moves them a little.
    return {"x": rng.normal(size=(10, 4)), **features(rng, 4), "momentum": 0.995, "eps": 1e-5}


@case(points=2)
def one_example(rng):
    # N = 1, which the statement allows: each feature's mean is the example itself and its
    # biased variance 0, so out is beta and the running variance moves towards 0 (an unbiased
    # variance divides by N - 1 = 0 here).
    return {"x": rng.normal(size=(1, 5)), **features(rng, 5), "momentum": 0.9, "eps": 1e-5}
