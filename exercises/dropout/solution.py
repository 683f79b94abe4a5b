"""Reference: inverted dropout in training mode, one draw per element of x."""


def dropout(x, p, rng):
    """Keep each element with probability 1 - p and scale the kept ones by 1 / (1 - p)."""
    mask = rng.random(x.shape) >= p
    out = x * mask / (1 - p)
    return out, mask
