HINT = ("Check which size is which: the input weights W are (H, D), the recurrent weights U "
        "are (H, H) and the bias has one entry per hidden unit. Your count treats the input "
        "size as the number of units.")

BLOCKS = {"plain": 1, "gated": 2, "gru": 3, "lstm": 4}


def parameter_count(kind, input_size, hidden_size, output_size=0):
    h, d, o = input_size, hidden_size, output_size
    return BLOCKS[kind] * (h * d + h * h + h) + o * h + o
