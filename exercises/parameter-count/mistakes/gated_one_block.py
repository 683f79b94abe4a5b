"""The gated unit counted as one block, like the plain unit: its gate is forgotten."""

HINT = ("Your gated unit has as many parameters as a plain one. Besides its candidate it "
        "computes an update gate, and that gate is an affine map with weights and a bias of "
        "its own.")

BLOCKS = {"plain": 1, "gated": 1, "gru": 3, "lstm": 4}


def parameter_count(kind, input_size, hidden_size, output_size=0):
    d, h, o = input_size, hidden_size, output_size
    return BLOCKS[kind] * (h * d + h * h + h) + o * h + o
