"""Draws from a deep copy of rng, so the caller's generator never advances."""
import copy


def dropout(x, p, rng):
    local = copy.deepcopy(rng)
    mask = local.random(x.shape) >= p
    out = x * mask / (1 - p)
    return out, mask


RIGHT_DIAGNOSES = ("copied_generator",)
