import numpy as np


def pairwise_distances(X: np.ndarray, Y: np.ndarray) -> np.ndarray:
    """Euclidean distances between the rows of X and the rows of Y, without Python loops.

    Args:
        X: float64 array of shape (n, d).
        Y: float64 array of shape (m, d).

    Returns:
        float64 array D of shape (n, m) with D[i, j] = ||X[i] - Y[j]||.
    """
    return np.zeros((X.shape[0], Y.shape[0]))  # TODO
