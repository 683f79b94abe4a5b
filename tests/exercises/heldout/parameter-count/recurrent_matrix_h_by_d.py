"""Sizes the recurrent matrix U as H x D like W: 2 * H * D + H per block."""

RIGHT_DIAGNOSES = ("recurrent_weights_like_input",)

BLOCKS = {"plain": 1, "gated": 2, "gru": 3, "lstm": 4}


def parameter_count(kind: str, input_size: int, hidden_size: int, output_size: int = 0) -> int:
    W = hidden_size * input_size
    U = hidden_size * input_size
    b = hidden_size
    total = BLOCKS[kind] * (W + U + b)
    if output_size:
        total += output_size * hidden_size + output_size
    return total
