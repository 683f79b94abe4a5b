"""The draws made with the shape reversed and transposed back: each element meets another draw."""


HINT = (
    "Your mask keeps the right share of elements, but not the elements the statement's "
    "draws pick: your draws meet the elements in another order (as when they are made for "
    "the reversed shape and transposed back). Draw one number per element with the shape of "
    "x itself, so that the i-th draw belongs to the i-th element in x's own order."
)


def dropout(x, p, rng):
    draws = rng.random(x.shape[::-1]).T
    mask = draws >= p
    return x * mask / (1 - p), mask
