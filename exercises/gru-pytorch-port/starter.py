import numpy as np


def torch_gru_step(x: np.ndarray, h: np.ndarray,
                   weight_ih: np.ndarray, weight_hh: np.ndarray,
                   bias_ih: np.ndarray, bias_hh: np.ndarray) -> np.ndarray:
    """One step of torch.nn.GRUCell from its parameters, as numpy arrays.

    x: (D,) or (N, D);  h: (H,) or (N, H)
    weight_ih: (3H, D);  weight_hh: (3H, H);  bias_ih, bias_hh: (3H,)

    Returns the new state, float64, shaped like h.
    """
    # TODO: cut each parameter into its three blocks in PyTorch's order, then apply the reset
    # where PyTorch applies it
    return np.zeros_like(h)
