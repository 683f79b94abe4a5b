"""Input weights counted as D x D instead of H x D."""

RIGHT_DIAGNOSES = ("input_weights_square",)

BLOCKS = {"plain": 1, "gated": 2, "gru": 3, "lstm": 4}


def parameter_count(kind, input_size, hidden_size, output_size=0):
    d, h, o = input_size, hidden_size, output_size
    return BLOCKS[kind] * (d * d + h * h + h) + o * (h + 1)
