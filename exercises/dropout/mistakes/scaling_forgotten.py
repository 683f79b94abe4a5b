"""The kept elements are not rescaled: out = x * mask."""

HINT = ("Your mask is right, but each kept element must also be divided by 1 - p. Without it "
        "the layer's output is smaller on average during training (by the factor 1 - p) than "
        "at test time, where dropout does nothing.")


def dropout(x, p, rng):
    mask = rng.random(x.shape) >= p
    return x * mask, mask
