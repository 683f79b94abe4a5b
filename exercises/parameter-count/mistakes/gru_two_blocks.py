"""A GRU counted with two blocks, the update gate and the candidate, forgetting its reset gate."""

HINT = ("Recount the affine maps of a GRU: besides the update gate and the candidate state, "
        "it has one more gate, and each gate has weights and a bias of its own.")

BLOCKS = {"plain": 1, "gated": 2, "gru": 2, "lstm": 4}


def parameter_count(kind, input_size, hidden_size, output_size=0):
    d, h, o = input_size, hidden_size, output_size
    return BLOCKS[kind] * (h * d + h * h + h) + o * h + o
