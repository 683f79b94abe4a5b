"""Inverted dropout that rescales the kept elements by 1/p instead of 1/(1-p)."""


def dropout(x, p, rng):
    mask = rng.random(x.shape) >= p
    out = x * mask / p if p > 0 else x * mask
    return out, mask


RIGHT_DIAGNOSES = ("scaled_by_drop_probability",)
