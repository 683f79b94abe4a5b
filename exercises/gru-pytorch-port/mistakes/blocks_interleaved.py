"""The weights' rows read as interleaved per unit (r0, z0, n0, r1, ...) instead of three blocks."""

import numpy as np

HINT = (
    "You read the rows of the weights and biases as interleaved unit by unit (r, z, n of "
    "unit 0, then of unit 1, ...): they hold three blocks one after the other, the H rows "
    "of the reset gate, then the H of the update gate, then the H of the new gate. Take the "
    "blocks as [:H], [H:2H] and [2H:] of the last axis."
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
    gi = x @ weight_ih.T + bias_ih          # the input's share of all three blocks
    gh = h @ weight_hh.T + bias_hh          # the state's share, before any reset
    r = _sigmoid(gi[..., 0::3] + gh[..., 0::3])
    z = _sigmoid(gi[..., 1::3] + gh[..., 1::3])
    n = np.tanh(gi[..., 2::3] + r * gh[..., 2::3])    # reset after the product
    return (1.0 - z) * n + z * h
