"""Draws with the shape reversed and transposes back, so draws meet elements in column-major order."""

RIGHT_DIAGNOSES = ("draws_in_another_order",)


def dropout(x, p, rng):
    u = rng.random(x.shape[::-1]).T
    mask = u >= p
    return x * mask / (1 - p), mask
