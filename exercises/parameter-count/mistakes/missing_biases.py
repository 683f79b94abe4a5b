HINT = ("Each affine map W x + U h + b has more than its two weight matrices. Count, for one "
        "block, everything that is added before the nonlinearity, and do the same for the "
        "read-out layer.")

BLOCKS = {"plain": 1, "gated": 2, "gru": 3, "lstm": 4}


def parameter_count(kind, input_size, hidden_size, output_size=0):
    d, h, o = input_size, hidden_size, output_size
    return BLOCKS[kind] * (h * d + h * h) + o * h
