"""Draws from a copy of the generator: the mask is right, but the caller's generator never
advances, so every training step would drop the same units."""

import copy

HINT = (
    "Your mask is right, but you draw it from a copy of rng (copy.deepcopy(rng), or a "
    "generator rebuilt from its state), so the caller's generator never advances: every "
    "training step would drop the same units. Draw from rng itself, once, with "
    "rng.random(x.shape)."
)


def dropout(x, p, rng):
    mask = copy.deepcopy(rng).random(x.shape) >= p
    return x * mask / (1 - p), mask
