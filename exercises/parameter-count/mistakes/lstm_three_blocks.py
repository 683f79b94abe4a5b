HINT = ("Recount the affine maps of an LSTM: list its gates one by one, then remember that the "
        "candidate cell value is computed by an affine map of its own.")

BLOCKS = {"plain": 1, "gated": 2, "gru": 3, "lstm": 3}


def parameter_count(kind, input_size, hidden_size, output_size=0):
    d, h, o = input_size, hidden_size, output_size
    return BLOCKS[kind] * (h * d + h * h + h) + o * h + o
