"""Dropout that zeroes and rescales x in place and returns x itself as out."""


def dropout(x, p, rng):
    mask = rng.random(x.shape) >= p
    x[~mask] = 0.0
    x /= 1 - p
    return x, mask


RIGHT_DIAGNOSES = ("changed_input",)
