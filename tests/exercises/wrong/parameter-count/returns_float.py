"""Returns a float (e.g. 61.0) instead of an int."""

RIGHT_DIAGNOSES = ("wrong_type",)

BLOCKS = {"plain": 1, "gated": 2, "gru": 3, "lstm": 4}


def parameter_count(kind, input_size, hidden_size, output_size=0):
    d, h, o = input_size, hidden_size, output_size
    return float(BLOCKS[kind] * h * (d + h + 1) + o * (h + 1))
