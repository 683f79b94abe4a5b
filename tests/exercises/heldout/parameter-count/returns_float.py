"""Returns a float (H * (D + H + 1.0)), e.g. 61.0 instead of the int 61."""

RIGHT_DIAGNOSES = ("wrong_type",)

BLOCKS = {"plain": 1, "gated": 2, "gru": 3, "lstm": 4}


def parameter_count(kind: str, input_size: int, hidden_size: int, output_size: int = 0) -> int:
    H = hidden_size
    per_block = H * (input_size + H + 1.0)
    return BLOCKS[kind] * per_block + output_size * (H + 1)
