"""Counts two bias vectors per block (one for W x, one for U h), as PyTorch stores them."""

RIGHT_DIAGNOSES = ("two_biases_per_block",)


def parameter_count(kind: str, input_size: int, hidden_size: int, output_size: int = 0) -> int:
    blocks = {"plain": 1, "gated": 2, "gru": 3, "lstm": 4}[kind]
    D, H, n_out = input_size, hidden_size, output_size
    per_block = H * D + H + H * H + H
    return blocks * per_block + n_out * H + n_out
