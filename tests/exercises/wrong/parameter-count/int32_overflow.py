"""Count kept in 32-bit integers: wraps around beyond 2**31 - 1."""

import numpy as np

RIGHT_DIAGNOSES = ("int32_overflow",)

BLOCKS = {"plain": 1, "gated": 2, "gru": 3, "lstm": 4}


def parameter_count(kind, input_size, hidden_size, output_size=0):
    d, h, o = (np.int32(v) for v in (input_size, hidden_size, output_size))
    with np.errstate(over="ignore"):
        return int(np.int32(BLOCKS[kind]) * h * (d + h + np.int32(1)) + o * (h + np.int32(1)))
