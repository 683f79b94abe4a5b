HINT = ("Some libraries store two bias vectors per gate (one beside W, one beside U); they add "
        "up to a single bias, and this exercise counts one bias vector per affine block.")

BLOCKS = {"plain": 1, "gated": 2, "gru": 3, "lstm": 4}


def parameter_count(kind, input_size, hidden_size, output_size=0):
    d, h, o = input_size, hidden_size, output_size
    return BLOCKS[kind] * (h * d + h * h + 2 * h) + o * h + o
