"""LSTM counted with five blocks (a separate cell-state block)."""

RIGHT_DIAGNOSES = ("lstm_five_blocks",)

BLOCKS = {"plain": 1, "gated": 2, "gru": 3, "lstm": 5}


def parameter_count(kind, input_size, hidden_size, output_size=0):
    d, h, o = input_size, hidden_size, output_size
    return BLOCKS[kind] * h * (d + h + 1) + o * (h + 1)
