"""Scales the kept elements by 1 / p instead of 1 / (1 - p), confusing the drop and keep probabilities."""

RIGHT_DIAGNOSES = ("argument_for_complement",)


def dropout(x, p, rng):
    mask = rng.random(x.shape) >= p
    return x * mask / p, mask
