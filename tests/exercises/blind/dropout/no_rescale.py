"""Forgets the inverted scaling: returns mask * x without dividing by 1 - p."""

RIGHT_DIAGNOSES = ("scaling_forgotten",)


def dropout(x, p, rng):
    mask = rng.random(x.shape) >= p
    return x * mask, mask
