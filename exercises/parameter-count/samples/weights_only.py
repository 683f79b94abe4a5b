# expect: verdict=failed score=0 diagnosis=missing_biases
"""A learner who counted the weight matrices and forgot every bias vector."""

BLOCKS = {"plain": 1, "gated": 2, "gru": 3, "lstm": 4}


def parameter_count(kind, input_size, hidden_size, output_size=0):
    if kind not in BLOCKS:
        raise ValueError(f"unknown kind {kind!r}")
    h = hidden_size
    return BLOCKS[kind] * (h * input_size + h * h) + output_size * h
