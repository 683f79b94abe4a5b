"""Reference: parameter counts of plain, gated, GRU and LSTM recurrent layers."""

# Affine blocks W x + U h + b per unit kind: one per gate plus one for the candidate.
BLOCKS = {"plain": 1, "gated": 2, "gru": 3, "lstm": 4}


def parameter_count(kind: str, input_size: int, hidden_size: int, output_size: int = 0) -> int:
    """Number of trainable parameters of one recurrent layer (plus an optional read-out)."""
    if kind not in BLOCKS:
        raise ValueError(f"unknown kind {kind!r}; expected one of {', '.join(BLOCKS)}")
    d, h, o = int(input_size), int(hidden_size), int(output_size)
    per_block = h * d + h * h + h          # W (H x D), U (H x H), b (H,)
    readout = o * h + o                    # V (O x H), c (O,); nothing when O == 0
    return BLOCKS[kind] * per_block + readout
