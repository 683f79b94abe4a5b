"""Sizes the read-out matrix as O x D (input size) instead of O x H (hidden size)."""

RIGHT_DIAGNOSES = ("readout_on_input",)

BLOCKS = {"plain": 1, "gated": 2, "gru": 3, "lstm": 4}


def parameter_count(kind: str, input_size: int, hidden_size: int, output_size: int = 0) -> int:
    d, h, o = input_size, hidden_size, output_size
    recurrent = BLOCKS[kind] * (h * d + h * h + h)
    readout = o * d + o
    return recurrent + readout
