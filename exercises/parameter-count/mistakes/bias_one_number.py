"""Each bias counted as one number instead of one entry per unit."""

HINT = ("Your counts are short of biases. A bias is a vector with one entry for every unit "
        "its block (or the read-out) computes, not a single number.")

BLOCKS = {"plain": 1, "gated": 2, "gru": 3, "lstm": 4}


def parameter_count(kind, input_size, hidden_size, output_size=0):
    d, h, o = input_size, hidden_size, output_size
    readout = o * h + 1 if o > 0 else 0
    return BLOCKS[kind] * (h * d + h * h + 1) + readout
