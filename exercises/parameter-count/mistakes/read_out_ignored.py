HINT = ("The lesson's networks end in a dense read-out layer that turns the last hidden state "
        "into output_size numbers. It has trainable parameters of its own: are they counted?")

BLOCKS = {"plain": 1, "gated": 2, "gru": 3, "lstm": 4}


def parameter_count(kind, input_size, hidden_size, output_size=0):
    d, h = input_size, hidden_size
    return BLOCKS[kind] * (h * d + h * h + h)
