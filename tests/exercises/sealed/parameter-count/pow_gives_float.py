"""Squares H with math.pow, so the count is a float (e.g. 61.0) instead of an int."""

import math

RIGHT_DIAGNOSES = ("wrong_type",)

BLOCKS = {"plain": 1, "gated": 2, "gru": 3, "lstm": 4}


def parameter_count(kind: str, input_size: int, hidden_size: int, output_size: int = 0) -> int:
    W = hidden_size * input_size
    U = math.pow(hidden_size, 2)
    b = hidden_size
    total = BLOCKS[kind] * (W + U + b)
    if output_size > 0:
        total += output_size * hidden_size + output_size
    return total
