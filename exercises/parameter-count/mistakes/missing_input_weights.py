HINT = ("A recurrent block reads two vectors at every step: the previous state and something "
        "else. Which matrix feeds that second vector into each gate, and what is its shape?")

BLOCKS = {"plain": 1, "gated": 2, "gru": 3, "lstm": 4}


def parameter_count(kind, input_size, hidden_size, output_size=0):
    h, o = hidden_size, output_size
    return BLOCKS[kind] * (h * h + h) + o * h + o
