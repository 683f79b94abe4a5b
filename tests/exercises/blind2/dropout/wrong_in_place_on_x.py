"""Drops and rescales x in place (x *= mask; x /= 1 - p) and returns it, changing the caller's array."""


def dropout(x, p, rng):
    mask = rng.random(x.shape) >= p
    x *= mask
    x /= 1 - p
    return x, mask


RIGHT_DIAGNOSES = ("changed_input",)
