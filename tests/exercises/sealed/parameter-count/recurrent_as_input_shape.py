"""Gives U the input weights' shape (H x D) instead of H x H, so each block has 2HD + H."""

RIGHT_DIAGNOSES = ("recurrent_weights_like_input",)


def parameter_count(kind: str, input_size: int, hidden_size: int, output_size: int = 0) -> int:
    gates = {"plain": 0, "gated": 1, "gru": 2, "lstm": 3}
    if kind not in gates:
        raise ValueError(kind)
    W = hidden_size * input_size
    U = hidden_size * input_size
    b = hidden_size
    block = W + U + b
    total = (gates[kind] + 1) * block
    total += output_size * (hidden_size + 1)
    return total
