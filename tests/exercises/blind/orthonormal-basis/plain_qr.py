"""Returns the QR factor Q, which has min(m, n) columns whatever the rank."""

import numpy as np

RIGHT_DIAGNOSES = ("qr_keeps_every_column",)


def orthonormal_basis(a):
    q, _ = np.linalg.qr(a)
    return q
