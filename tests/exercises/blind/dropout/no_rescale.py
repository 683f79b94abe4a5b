"""Forgets the inverted scaling: returns mask * x without dividing by 1 - p."""


def dropout(x, p, rng):
    mask = rng.random(x.shape) >= p
    return x * mask, mask
