"""One recurrent matrix counted for the whole layer instead of one per block."""

HINT = ("Your plain unit is counted right, but units with several blocks are short of "
        "recurrent weights. Gates and the candidate share nothing: each block reads the "
        "previous state through a recurrent matrix of its own.")

BLOCKS = {"plain": 1, "gated": 2, "gru": 3, "lstm": 4}


def parameter_count(kind, input_size, hidden_size, output_size=0):
    d, h, o = input_size, hidden_size, output_size
    return BLOCKS[kind] * (h * d + h) + h * h + o * h + o
