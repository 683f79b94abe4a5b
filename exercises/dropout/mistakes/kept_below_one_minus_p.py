"""Kept where the draw is below 1 - p: the right probability, but not the statement's rule."""

HINT = ("Your mask keeps an element when its draw is below 1 - p. That keeps the right share "
        "of elements, but not the ones the statement fixes: an element is kept when its draw "
        "u satisfies u >= p, so that the same generator always gives the same mask.")


def dropout(x, p, rng):
    mask = rng.random(x.shape) < 1 - p
    return x * mask / (1 - p), mask
