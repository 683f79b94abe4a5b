"""Correct: computed with NumPy int64 arithmetic and returned as np.int64."""

import numpy as np

BLOCKS = {"plain": 1, "gated": 2, "gru": 3, "lstm": 4}


def parameter_count(kind, input_size, hidden_size, output_size=0):
    d, h, o = (np.int64(v) for v in (input_size, hidden_size, output_size))
    return BLOCKS[kind] * h * (d + h + 1) + o * (h + 1)
