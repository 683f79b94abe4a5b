"""Forgets the inverted scaling: returns x * mask without dividing by 1 - p."""


def dropout(x, p, rng):
    mask = rng.random(x.shape) >= p
    out = x * mask
    return out, mask


RIGHT_DIAGNOSES = ("scaling_forgotten",)
