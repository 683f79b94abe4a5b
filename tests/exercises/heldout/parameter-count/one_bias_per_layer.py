"""Counts a single bias vector for the whole layer instead of one per block."""

RIGHT_DIAGNOSES = ("one_bias_shared",)

BLOCKS = {"plain": 1, "gated": 2, "gru": 3, "lstm": 4}


def parameter_count(kind: str, input_size: int, hidden_size: int, output_size: int = 0) -> int:
    n = BLOCKS[kind]
    weights = n * (hidden_size * input_size + hidden_size * hidden_size)
    biases = hidden_size
    readout = output_size * hidden_size + output_size
    return weights + biases + readout
