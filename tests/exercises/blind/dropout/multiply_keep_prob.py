"""Multiplies the kept elements by 1 - p (original dropout's test-time scaling) instead of dividing."""

RIGHT_DIAGNOSES = ("scaled_by_keep_probability",)


def dropout(x, p, rng):
    mask = rng.random(x.shape) >= p
    return x * mask * (1 - p), mask
