"""Counts the read-out layer as its weights V only (O * H), leaving out its bias c."""

RIGHT_DIAGNOSES = ("readout_bias_missing",)


def parameter_count(kind: str, input_size: int, hidden_size: int, output_size: int = 0) -> int:
    if kind == "plain":
        n_blocks = 1
    elif kind == "gated":
        n_blocks = 2
    elif kind == "gru":
        n_blocks = 3
    elif kind == "lstm":
        n_blocks = 4
    else:
        raise ValueError(f"unknown kind: {kind}")
    h = hidden_size
    recurrent = n_blocks * (h * input_size + h * h + h)
    readout = output_size * h
    return recurrent + readout
