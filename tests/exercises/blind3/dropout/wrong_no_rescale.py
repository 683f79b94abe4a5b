"""Plain (not inverted) dropout: zeroes the dropped elements but forgets to divide the kept ones by 1 - p."""


def dropout(x, p, rng):
    mask = rng.random(x.shape) >= p
    out = x * mask
    return out, mask


RIGHT_DIAGNOSES = ("scaling_forgotten",)
