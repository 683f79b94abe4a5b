"""Keeps an element when its draw is below 1 - p (the right share, but not the same elements)."""

RIGHT_DIAGNOSES = ("kept_below_one_minus_p",)


def dropout(x, p, rng):
    mask = rng.random(x.shape) < 1 - p
    return x * mask / (1 - p), mask
