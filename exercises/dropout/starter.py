import numpy as np


def dropout(x: np.ndarray, p: float, rng: np.random.Generator
            ) -> tuple[np.ndarray, np.ndarray]:
    """Inverted dropout in training mode.

    Args:
        x: the activations, a float64 array of any shape.
        p: the probability of dropping an element, 0 <= p < 1.
        rng: the generator to draw from: call rng.random(x.shape) exactly once.

    Returns:
        out: float64 array of x's shape: the kept elements divided by 1 - p, zeros elsewhere.
        mask: bool array of x's shape, True where the element is kept (its draw is >= p).
    """
    mask = np.ones(x.shape, dtype=bool)  # TODO: draw the mask from rng
    out = x.copy()  # TODO: drop and rescale
    return out, mask
