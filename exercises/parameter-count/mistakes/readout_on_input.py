"""The read-out layer sized from the input: O x D weights instead of O x H."""

HINT = ("Your recurrent layer is counted right but the read-out is not. The read-out reads "
        "the last hidden state, not the input: size its weight matrix from what it reads.")

BLOCKS = {"plain": 1, "gated": 2, "gru": 3, "lstm": 4}


def parameter_count(kind, input_size, hidden_size, output_size=0):
    d, h, o = input_size, hidden_size, output_size
    return BLOCKS[kind] * (h * d + h * h + h) + o * d + o
