# expect: verdict=passed score=36 diagnosis=none
"""Another correct method: count per hidden unit (its input row, recurrent row and bias in
every block), then add the read-out."""

GATES = {"plain": 0, "gated": 1, "gru": 2, "lstm": 3}


def parameter_count(kind, input_size, hidden_size, output_size=0):
    if kind not in GATES:
        raise ValueError(f"unknown kind {kind!r}")
    per_unit = (GATES[kind] + 1) * (input_size + hidden_size + 1)
    return hidden_size * per_unit + output_size * (hidden_size + 1)
