"""Dropout that draws from a deep copy of rng "to avoid side effects", so the caller's generator never advances."""
import copy


def dropout(x, p, rng):
    local_rng = copy.deepcopy(rng)
    mask = local_rng.random(x.shape) >= p
    out = x * mask / (1 - p)
    return out, mask


RIGHT_DIAGNOSES = ("copied_generator",)
