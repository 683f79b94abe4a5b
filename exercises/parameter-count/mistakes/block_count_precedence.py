"""blocks * h * d + h * h + h: only the input weights multiplied by the number of blocks."""

HINT = ("Your plain unit is counted right, but for units with several blocks only part of "
        "each block is multiplied by their number. Every block has its own input weights, "
        "recurrent weights and bias: check where your parentheses go.")

BLOCKS = {"plain": 1, "gated": 2, "gru": 3, "lstm": 4}


def parameter_count(kind, input_size, hidden_size, output_size=0):
    d, h, o = input_size, hidden_size, output_size
    return BLOCKS[kind] * h * d + h * h + h + o * h + o
