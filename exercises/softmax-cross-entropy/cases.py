"""Test cases of the softmax cross-entropy.

Batched cases are checked for batch consistency: the loss of a batch is the mean of its
examples' losses (``batch = "mean"``) and its gradient their gradients stacked and divided by
the batch size (``batch = "stack/n"``). Logits of hundreds and a thousand, in both directions,
tell a log-sum-exp from a softmax that overflows; batches of several sizes tell a mean from a
sum, and labels that are not the largest logit tell the gradient's sign and its one-hot term.
"""

import numpy as np

from graders.cases import case

BATCH = {"logits": 0, "labels": 0}


def batch(rng, n, classes, scale=1.0):
    return {
        "logits": scale * rng.normal(size=(n, classes)),
        "labels": rng.integers(0, classes, size=n),
    }


@case(public=True, points=1, batch_axes=BATCH)
def worked_example(rng):
    # The statement's worked example: two examples, three classes.
    return {
        "logits": np.array([[2.0, 1.0, 0.1],
                            [0.5, 2.5, -1.0]]),
        "labels": np.array([0, 2]),
    }


@case(public=True, points=1)
def one_example_with_large_logits(rng):
    # One example (a 0-d label): exp(1000) overflows, a log-sum-exp does not.
    return {"logits": np.array([1000.0, -1000.0, 999.0]), "labels": np.array(2)}


@case(points=3, time_s=1)
def large_batch(rng):
    # 256 examples of 1000 classes: a gradient by central differences needs two losses per
    # logit (about half a million, minutes of CPU time) where the formula takes milliseconds.
    # The first hidden case: code stopped at its limit runs none of the others.
    return batch(rng, 256, 1000, scale=3.0)


@case(points=2, batch_axes=BATCH)
def batch_of_five(rng):
    return batch(rng, 5, 4)


@case(points=2, batch_axes=BATCH)
def batch_of_one(rng):
    return batch(rng, 1, 6)


@case(points=2, batch_axes=BATCH)
def two_classes(rng):
    return batch(rng, 7, 2)


@case(points=2, batch_axes=BATCH)
def many_classes(rng):
    return batch(rng, 8, 100)


@case(points=2)
def one_example(rng):
    return {"logits": rng.normal(size=5), "labels": np.array(3)}


@case(points=3, batch_axes=BATCH)
def logits_in_the_thousands(rng):
    # Differences of hundreds between the logits of one example, positive and negative.
    return batch(rng, 6, 5, scale=1000.0)


@case(points=3, batch_axes=BATCH)
def all_logits_very_negative(rng):
    # exp(-1000) is 0 in float64: a softmax without the shift divides 0 by 0.
    inputs = batch(rng, 4, 3)
    inputs["logits"] = inputs["logits"] - 1000.0
    return inputs


@case(points=2, batch_axes=BATCH)
def equal_logits(rng):
    # Every class equally likely: the loss is log C and each gradient row is 1/C - onehot.
    return {"logits": np.full((3, 4), 2.5), "labels": np.array([0, 3, 1])}


@case(points=2, batch_axes=BATCH)
def confident_and_right(rng):
    # The right class leads by 50: the loss is close to 0, and so is the gradient.
    labels = rng.integers(0, 6, size=5)
    logits = rng.normal(size=(5, 6))
    logits[np.arange(5), labels] += 50.0
    return {"logits": logits, "labels": labels}


@case(points=2, batch_axes=BATCH)
def confident_and_wrong(rng):
    # Another class leads by 30: the loss is about 30 per example.
    labels = np.array([0, 1, 2, 3])
    logits = rng.normal(size=(4, 4))
    logits[np.arange(4), (labels + 1) % 4] += 30.0
    return {"logits": logits, "labels": labels}


@case(points=2, batch_axes=BATCH)
def same_label_everywhere(rng):
    inputs = batch(rng, 6, 3)
    inputs["labels"] = np.full(6, 1)
    return inputs


@case(points=2, batch_axes=BATCH)
def one_class(rng):
    # C = 1, which the labels' range [0, C) allows: the only class has probability 1, so every
    # loss is 0 and so is the gradient (p - onehot = 1 - 1).
    return {"logits": rng.normal(size=(4, 1)), "labels": np.zeros(4, dtype=int)}


@case(points=2)
def one_example_near_a_thousand(rng):
    # One example (a 0-d label) whose logits all lie near 1000, beyond where exp overflows:
    # the hidden counterpart of the public large-logit example, with a loss of order one.
    return {"logits": 1000.0 + rng.normal(size=6), "labels": np.array(4)}
