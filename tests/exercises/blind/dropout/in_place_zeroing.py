"""Zeroes the dropped elements of x in place and scales x itself, changing the caller's array."""

RIGHT_DIAGNOSES = ("changed_input",)


def dropout(x, p, rng):
    mask = rng.random(x.shape) >= p
    x[~mask] = 0.0
    x /= 1 - p
    return x, mask
