"""An element kept when its draw is below p: kept with probability p, scaled by 1 / (1 - p)."""


HINT = (
    "Your mask keeps an element when its draw is below p, so it keeps each element with "
    "probability p and drops it with probability 1 - p: the reverse of the statement, where "
    "p is the probability of dropping. Keep an element when its draw is >= p."
)


def dropout(x, p, rng):
    mask = rng.random(x.shape) < p
    return x * mask / (1 - p), mask
