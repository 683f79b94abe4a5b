"""Wrong: perturbs every element at once, (f(x + h) - f(x - h)) / 2h, and fills the whole array with that one directional derivative."""
import numpy as np


def numerical_gradient(f, x, h=1e-5):
    p = np.array(x, dtype=np.float64)
    d = (f(p + h) - f(p - h)) / (2 * h)
    return np.full(p.shape, d, dtype=np.float64)


# What the grader's hint says of this file, truly (the corpus README's table).
RIGHT_DIAGNOSES = ("every_element_at_once",)
