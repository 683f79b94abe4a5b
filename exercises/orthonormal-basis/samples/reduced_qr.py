# expect: verdict=failed score=17 diagnosis=qr_keeps_every_column
"""A learner who knows that QR orthonormalises columns, and returns the reduced Q factor."""

import numpy as np


def orthonormal_basis(a):
    return np.linalg.qr(a, mode="reduced").Q
