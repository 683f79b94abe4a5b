"""Counts only the read-out weight matrix V (O * H) and forgets its bias c."""

RIGHT_DIAGNOSES = ("readout_bias_missing",)


def parameter_count(kind: str, input_size: int, hidden_size: int, output_size: int = 0) -> int:
    blocks = {"plain": 1, "gated": 2, "gru": 3, "lstm": 4}[kind]
    d, h, o = input_size, hidden_size, output_size
    return blocks * (h * d + h * h + h) + o * h
