"""Mistake: computes with np.int32 arrays, which overflow silently beyond 2**31."""
import numpy as np

_BLOCKS = {"plain": 1, "gated": 2, "gru": 3, "lstm": 4}


def parameter_count(kind, input_size, hidden_size, output_size=0):
    D, H, O = (np.int32(v) for v in (input_size, hidden_size, output_size))
    total = np.int32(_BLOCKS[kind]) * (H * D + H * H + H)
    if O > 0:
        total = total + O * H + O
    return total


RIGHT_DIAGNOSES = ("int32_overflow",)
