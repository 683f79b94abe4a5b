"""Computes the count with numpy int32 arithmetic, which wraps around for counts beyond 2**31."""

import numpy as np

RIGHT_DIAGNOSES = ("int32_overflow",)

BLOCKS = {"plain": 1, "gated": 2, "gru": 3, "lstm": 4}


def parameter_count(kind: str, input_size: int, hidden_size: int, output_size: int = 0) -> int:
    d = np.int32(input_size)
    h = np.int32(hidden_size)
    o = np.int32(output_size)
    total = np.int32(BLOCKS[kind]) * (h * d + h * h + h) + o * h + o
    return int(total)
