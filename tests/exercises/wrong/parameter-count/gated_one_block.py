"""Counts the gated unit as one block, like a plain unit (gate forgotten)."""

RIGHT_DIAGNOSES = ("gated_one_block",)

BLOCKS = {"plain": 1, "gated": 1, "gru": 3, "lstm": 4}


def parameter_count(kind, input_size, hidden_size, output_size=0):
    d, h, o = input_size, hidden_size, output_size
    return BLOCKS[kind] * h * (d + h + 1) + o * (h + 1)
