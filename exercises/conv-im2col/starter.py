import numpy as np


def conv_forward(x: np.ndarray, w: np.ndarray, b: np.ndarray, stride: int, pad: int
                 ) -> np.ndarray:
    """The forward pass of a 2-D convolution layer, through im2col and one matrix product.

    Args:
        x: the input images, shape (N, C, H, W).
        w: the filters, shape (F, C, HH, WW).
        b: one bias per filter, shape (F,).
        stride: the step between two windows, in both directions (an int >= 1).
        pad: the number of zero rows and columns added on each side of every image (>= 0).

    Returns:
        out: float64 array of shape (N, F, H_out, W_out) with
            H_out = 1 + (H + 2 * pad - HH) // stride and W_out = 1 + (W + 2 * pad - WW) // stride.
    """
    N, F = x.shape[0], w.shape[0]
    H_out = 1 + (x.shape[2] + 2 * pad - w.shape[2]) // stride
    W_out = 1 + (x.shape[3] + 2 * pad - w.shape[3]) // stride
    return np.zeros((N, F, H_out, W_out))  # TODO: im2col, then one matrix product
