"""Returns the mask as float 0.0 / 1.0 (astype(float)) instead of a boolean array."""


def dropout(x, p, rng):
    mask = (rng.random(x.shape) >= p).astype(float)
    out = x * mask / (1 - p)
    return out, mask


RIGHT_DIAGNOSES = ("wrong_dtype",)
