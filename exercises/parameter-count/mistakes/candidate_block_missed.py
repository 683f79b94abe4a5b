HINT = ("Recount the affine blocks of each unit: one per gate, and then the candidate (the "
        "new content) is computed by an affine map of its own as well.")

BLOCKS = {"plain": 1, "gated": 1, "gru": 2, "lstm": 3}


def parameter_count(kind, input_size, hidden_size, output_size=0):
    d, h, o = input_size, hidden_size, output_size
    return BLOCKS[kind] * (h * d + h * h + h) + o * h + o
