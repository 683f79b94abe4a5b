"""Read-out counted as O x H weights without its O biases."""

RIGHT_DIAGNOSES = ("drop_term", "readout_bias_missing")

BLOCKS = {"plain": 1, "gated": 2, "gru": 3, "lstm": 4}


def parameter_count(kind, input_size, hidden_size, output_size=0):
    d, h, o = input_size, hidden_size, output_size
    return BLOCKS[kind] * h * (d + h + 1) + o * h
