"""Cases for dropout. Every case passes its own generator: the case's rng after drawing x, or
a generator of a fixed seed. Each call starts from the same state, so the one draw the
statement fixes (rng.random(x.shape)) makes the outputs exact.

No case is batched: an example drawn alone would take the first draws of the generator, not
its own slice of the batch's draws, so the batch and its examples cannot agree.
"""

import numpy as np

from graders.cases import case, variant

# The worked example's generator: tests/exercises/test_worked_examples.py rebuilds it.
WORKED_SEED = 2037

DROP_PROBABILITIES = [0.1, 0.2, 0.25, 0.4]
"""The drop probability of the public "a share dropped" each learner may draw."""


@variant(default={"p": 0.2, "scale": 1.25})
def drop_probability(rng):
    # The statement prints the learner's p and the scale 1 / (1 - p) of a kept element.
    p = float(rng.choice(DROP_PROBABILITIES))
    return {"p": p, "scale": round(1.0 / (1.0 - p), 6)}


# --- public ---------------------------------------------------------------------------------


@case(public=True, points=1)
def worked_example(rng):
    x = np.array([[1.0, -2.0, 3.0], [0.5, 4.0, -1.5]])
    return {"x": x, "p": 0.5, "rng": np.random.default_rng(WORKED_SEED)}


@case(public=True, points=1)
def a_share_dropped(rng, variant):
    # The learner's own p (a fifth by default).
    return {"x": rng.normal(size=(4, 5)), "p": variant["p"], "rng": rng}


# --- hidden ---------------------------------------------------------------------------------


@case(points=2)
def activations_of_a_batch(rng):
    return {"x": rng.normal(size=(16, 10)), "p": 0.5, "rng": rng}


@case(points=2)
def nothing_dropped(rng):
    # p = 0: every draw is >= 0, the mask is all True and out equals x.
    return {"x": rng.normal(size=(5, 3)), "p": 0.0, "rng": rng}


@case(points=2)
def most_dropped(rng):
    return {"x": rng.uniform(-4.0, 4.0, size=(8, 7)), "p": 0.9, "rng": np.random.default_rng(11)}


@case(points=2)
def one_dimensional(rng):
    return {"x": rng.normal(size=25), "p": 0.3, "rng": rng}


@case(points=2)
def feature_maps(rng):
    # (N, C, H, W): a mask per element, not per channel.
    return {"x": rng.normal(size=(2, 3, 4, 5)), "p": 0.25, "rng": rng}


@case(points=2)
def large_values(rng):
    return {"x": rng.normal(scale=1e6, size=(6, 9)), "p": 0.6, "rng": np.random.default_rng(3)}
