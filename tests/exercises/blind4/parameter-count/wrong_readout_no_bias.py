"""Mistake: the read-out layer is counted as V only, forgetting its bias c."""

_BLOCKS = {"plain": 1, "gated": 2, "gru": 3, "lstm": 4}


def parameter_count(kind, input_size, hidden_size, output_size=0):
    D, H, O = input_size, hidden_size, output_size
    return _BLOCKS[kind] * (H * D + H * H + H) + O * H


RIGHT_DIAGNOSES = ("readout_bias_missing",)
