"""p read as the probability of keeping an element (as in some course notes)."""

HINT = ("Your mask keeps an element when its draw is below p, and you divide by p: you read p "
        "as the probability of keeping. Here p is the probability of dropping: keep an "
        "element when its draw is >= p and divide the kept ones by 1 - p.")


def dropout(x, p, rng):
    mask = rng.random(x.shape) < p
    return x * mask / p, mask
