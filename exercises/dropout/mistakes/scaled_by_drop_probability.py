"""The kept elements divided by p, the drop probability, where 1 - p belongs; p = 0 guarded
by leaving x as it is."""

HINT = (
    "Your mask is right, but the kept elements are divided by p, the probability of dropping, "
    "where the probability of keeping, 1 - p, belongs: inverted dropout divides by 1 - p so "
    "that the expected output equals x. (With p = 0.5 both give the same result.)"
)


def dropout(x, p, rng):
    mask = rng.random(x.shape) >= p
    if p == 0:
        return x * mask, mask
    return x * mask / p, mask
