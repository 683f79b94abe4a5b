"""Counts two bias vectors per block (PyTorch style) instead of one."""

RIGHT_DIAGNOSES = ("two_biases_per_block",)

BLOCKS = {"plain": 1, "gated": 2, "gru": 3, "lstm": 4}


def parameter_count(kind: str, input_size: int, hidden_size: int, output_size: int = 0) -> int:
    d, h, o = input_size, hidden_size, output_size
    per_block = h * d + h * h + 2 * h
    total = BLOCKS[kind] * per_block
    if o > 0:
        total += o * h + o
    return total
