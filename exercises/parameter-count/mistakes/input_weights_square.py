"""Input weights counted as D x D: the input matrix sized from the input alone."""

HINT = ("Check the size of each block's input weight matrix. It maps the D inputs to the "
        "block's pre-activations, one per hidden unit, so both sizes enter its count.")

BLOCKS = {"plain": 1, "gated": 2, "gru": 3, "lstm": 4}


def parameter_count(kind, input_size, hidden_size, output_size=0):
    d, h, o = input_size, hidden_size, output_size
    return BLOCKS[kind] * (d * d + h * h + h) + o * h + o
