"""Shortcut: takes the rank from np.linalg.matrix_rank and keeps that many columns of a plain QR."""

import numpy as np


def orthonormal_basis(a):
    r = int(np.linalg.matrix_rank(a))
    q, _ = np.linalg.qr(a)
    return q[:, :r]
