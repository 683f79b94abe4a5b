"""One bias vector shared by all blocks instead of one per block."""

RIGHT_DIAGNOSES = ("one_bias_shared",)

BLOCKS = {"plain": 1, "gated": 2, "gru": 3, "lstm": 4}


def parameter_count(kind, input_size, hidden_size, output_size=0):
    d, h, o = input_size, hidden_size, output_size
    return BLOCKS[kind] * h * (d + h) + h + o * (h + 1)
