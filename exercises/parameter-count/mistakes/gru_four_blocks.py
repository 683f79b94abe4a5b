HINT = ("Recount the affine maps of a GRU: which gates does it have, and is the candidate state "
        "one more map? The GRU has no output gate and no separate cell state.")

BLOCKS = {"plain": 1, "gated": 2, "gru": 4, "lstm": 4}


def parameter_count(kind, input_size, hidden_size, output_size=0):
    d, h, o = input_size, hidden_size, output_size
    return BLOCKS[kind] * (h * d + h * h + h) + o * h + o
