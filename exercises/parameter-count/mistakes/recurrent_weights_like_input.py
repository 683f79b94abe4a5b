"""The recurrent matrix U counted as H x D, like the input matrix W: 2 * H * D + H per block."""

HINT = ("Check the size of each block's recurrent weight matrix. It maps the previous state, "
        "not the input, to the block's pre-activations, so the input size has no part in its "
        "count.")

BLOCKS = {"plain": 1, "gated": 2, "gru": 3, "lstm": 4}


def parameter_count(kind, input_size, hidden_size, output_size=0):
    d, h, o = input_size, hidden_size, output_size
    return BLOCKS[kind] * (2 * h * d + h) + o * h + o
