"""Top-k that negates x in place (np.negative(x, out=x)) before a stable argsort."""
import numpy as np


def top_k_indices(x, k):
    if np.issubdtype(x.dtype, np.integer):
        np.invert(x, out=x)
    else:
        np.negative(x, out=x)
    return np.argsort(x, axis=-1, kind="stable")[..., :k]


RIGHT_DIAGNOSES = ("changed_input",)
