"""Mistake: draws from a deep copy of the generator, so the caller's rng never advances."""
import copy


def dropout(x, p, rng):
    local = copy.deepcopy(rng)
    mask = local.random(x.shape) >= p
    return x * mask / (1 - p), mask


RIGHT_DIAGNOSES = ("copied_generator",)
