"""An LSTM counted with five blocks: an extra affine map for the cell state."""

HINT = ("Your LSTM has one block too many. The new cell state is a mix of the old cell and "
        "the candidate, weighted by the gates: it has no weights of its own. Count one block "
        "per gate and one for the candidate.")

BLOCKS = {"plain": 1, "gated": 2, "gru": 3, "lstm": 5}


def parameter_count(kind, input_size, hidden_size, output_size=0):
    d, h, o = input_size, hidden_size, output_size
    return BLOCKS[kind] * (h * d + h * h + h) + o * h + o
