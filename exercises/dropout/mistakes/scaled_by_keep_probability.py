"""Multiplied by 1 - p (the test-time scaling of the original, non-inverted dropout)."""

HINT = ("Your mask is right, but you multiply the kept elements by 1 - p. That is the "
        "test-time scaling of the original dropout; inverted dropout divides by 1 - p during "
        "training so that nothing changes at test time.")


def dropout(x, p, rng):
    mask = rng.random(x.shape) >= p
    return x * mask * (1 - p), mask
