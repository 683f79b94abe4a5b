"""Mistake: counts two bias vectors per block (PyTorch's b_ih and b_hh) instead of one."""

_BLOCKS = {"plain": 1, "gated": 2, "gru": 3, "lstm": 4}


def parameter_count(kind, input_size, hidden_size, output_size=0):
    D, H, O = input_size, hidden_size, output_size
    total = _BLOCKS[kind] * (H * D + H * H + 2 * H)
    if O > 0:
        total += O * H + O
    return total


RIGHT_DIAGNOSES = ("two_biases_per_block",)
