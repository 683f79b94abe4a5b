"""Counts a GRU as two blocks (update gate and candidate), forgetting its reset gate."""

RIGHT_DIAGNOSES = ("gru_two_blocks",)


def parameter_count(kind: str, input_size: int, hidden_size: int, output_size: int = 0) -> int:
    if kind == "plain":
        n_blocks = 1
    elif kind in ("gated", "gru"):
        n_blocks = 2
    elif kind == "lstm":
        n_blocks = 4
    else:
        raise ValueError(kind)
    block = hidden_size * (input_size + hidden_size + 1)
    readout = output_size * (hidden_size + 1)
    return n_blocks * block + readout
