"""Mistake: keeps an element when its draw is below 1 - p (right share, wrong elements)."""


def dropout(x, p, rng):
    mask = rng.random(x.shape) < 1 - p
    return x * mask / (1 - p), mask


RIGHT_DIAGNOSES = ("kept_below_one_minus_p",)
