HINT = ("The lesson's gated unit is not a full GRU: look again at its equation and list the "
        "maps it really computes. Does it have a reset gate?")

BLOCKS = {"plain": 1, "gated": 3, "gru": 3, "lstm": 4}


def parameter_count(kind, input_size, hidden_size, output_size=0):
    d, h, o = input_size, hidden_size, output_size
    return BLOCKS[kind] * (h * d + h * h + h) + o * h + o
