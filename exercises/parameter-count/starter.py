def parameter_count(kind: str, input_size: int, hidden_size: int, output_size: int = 0) -> int:
    """Number of trainable parameters of one recurrent layer, plus an optional read-out.

    Args:
        kind: "plain", "gated", "gru" or "lstm".
        input_size: D, the length of each input vector x_t.
        hidden_size: H, the length of the hidden state h_t.
        output_size: O, the number of outputs of a dense read-out layer applied to the
            last hidden state; 0 means no read-out layer.

    Returns:
        The total number of weights and biases, as a Python int.
    """
    # TODO: count the affine blocks of the unit and their weights and biases.
    return 0
