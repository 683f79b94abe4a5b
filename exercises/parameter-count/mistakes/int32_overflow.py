import numpy as np

HINT = ("Your counts are right for small layers but wrong, even negative, for the largest "
        "ones. A 32-bit integer cannot hold more than 2**31 - 1; keep the arithmetic in "
        "Python ints (or 64-bit integers).")

BLOCKS = {"plain": 1, "gated": 2, "gru": 3, "lstm": 4}


def parameter_count(kind, input_size, hidden_size, output_size=0):
    d, h, o = np.int32(input_size), np.int32(hidden_size), np.int32(output_size)
    return BLOCKS[kind] * (h * d + h * h + h) + o * h + o
