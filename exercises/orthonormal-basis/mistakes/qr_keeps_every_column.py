"""The Q factor of a QR factorisation: orthonormal, spanning, but with one column per column
of a (up to m), whatever the rank."""

import numpy as np

HINT = ("Your columns are orthonormal and span the space, but there are too many of them when "
        "the columns of a are dependent: a basis has exactly rank(a) columns. np.linalg.qr "
        "keeps one column per column of a; find the rank (the singular values that are not "
        "rounding errors of zero) and keep that many directions, e.g. from np.linalg.svd.")


def orthonormal_basis(a):
    q, _ = np.linalg.qr(a)
    return q
