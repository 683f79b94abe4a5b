import numpy as np


def batchnorm_forward(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray,
                      running_mean: np.ndarray, running_var: np.ndarray,
                      momentum: float, eps: float
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Batch normalisation, forward pass in training mode.

    Args:
        x: a batch of N examples with D features, shape (N, D).
        gamma, beta: the scale and shift of each feature, shape (D,).
        running_mean, running_var: the running averages so far, shape (D,); do not change them
            in place.
        momentum: the weight of the old running averages, 0 <= momentum < 1.
        eps: added to the variance before the square root.

    Returns:
        out: shape (N, D), gamma * (x - mean) / sqrt(var + eps) + beta, with the batch's mean
            and biased variance (divided by N) of each feature.
        running_mean: momentum * running_mean + (1 - momentum) * mean, shape (D,).
        running_var: momentum * running_var + (1 - momentum) * var, shape (D,).
    """
    out = np.zeros_like(x)  # TODO
    return out, running_mean.copy(), running_var.copy()  # TODO
