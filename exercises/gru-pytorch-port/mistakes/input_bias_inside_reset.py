"""The input's bias of the new gate put inside the reset with the state's: r * (W_hn h + b_hn +
b_in)."""

import numpy as np

HINT = (
    "Your new gate resets the input's bias too: in PyTorch's GRU only the state's share, "
    "W_hn h + b_hn, is multiplied by r; the input's share W_in x + b_in, its bias included, "
    "is added outside the reset: n = tanh(W_in x + b_in + r * (W_hn h + b_hn))."
)


def _sigmoid(a: np.ndarray) -> np.ndarray:
    # sigma(a) = exp(-log(1 + exp(-a))): no overflow for any finite a.
    return np.exp(-np.logaddexp(0.0, -a))


def torch_gru_step(x: np.ndarray, h: np.ndarray,
                   weight_ih: np.ndarray, weight_hh: np.ndarray,
                   bias_ih: np.ndarray, bias_hh: np.ndarray) -> np.ndarray:
    """One step of torch.nn.GRUCell from its parameters: x (D,) or (N, D), h (H,) or (N, H).

    weight_ih (3H, D), weight_hh (3H, H), bias_ih and bias_hh (3H,) hold the blocks of the
    reset gate, the update gate and the new gate, in this order (r, z, n).
    """
    H = h.shape[-1]
    gi = x @ weight_ih.T + bias_ih          # the input's share of all three blocks
    gh = h @ weight_hh.T + bias_hh          # the state's share, before any reset
    r = _sigmoid(gi[..., :H] + gh[..., :H])
    z = _sigmoid(gi[..., H:2 * H] + gh[..., H:2 * H])
    b_in = bias_ih[2 * H:]
    n = np.tanh(gi[..., 2 * H:] - b_in + r * (gh[..., 2 * H:] + b_in))    # reset after the product
    return (1.0 - z) * n + z * h
