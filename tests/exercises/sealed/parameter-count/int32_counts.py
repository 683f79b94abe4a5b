"""Converts the sizes to np.int32 before multiplying: H * H and the total wrap beyond 2**31."""

import numpy as np

RIGHT_DIAGNOSES = ("int32_overflow",)


def parameter_count(kind: str, input_size: int, hidden_size: int, output_size: int = 0) -> int:
    n = {"plain": 1, "gated": 2, "gru": 3, "lstm": 4}[kind]
    # the sizes as one integer array, so the arithmetic below stays in integers
    D, H, n_out = np.array([input_size, hidden_size, output_size], dtype=np.int32)
    per_block = H * D + H * H + H
    readout = n_out * H + n_out
    return int(n * per_block + readout)
