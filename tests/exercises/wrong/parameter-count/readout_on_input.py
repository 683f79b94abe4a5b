"""Read-out sized from the input (O x D + O) instead of the state."""

RIGHT_DIAGNOSES = ("readout_on_input",)

BLOCKS = {"plain": 1, "gated": 2, "gru": 3, "lstm": 4}


def parameter_count(kind, input_size, hidden_size, output_size=0):
    d, h, o = input_size, hidden_size, output_size
    return BLOCKS[kind] * h * (d + h + 1) + o * (d + 1)
