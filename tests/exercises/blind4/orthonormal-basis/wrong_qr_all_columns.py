"""Mistake: returns the reduced QR factor, with n columns whatever the rank."""
import numpy as np


def orthonormal_basis(a):
    q, _ = np.linalg.qr(a)
    return q


RIGHT_DIAGNOSES = ("qr_keeps_every_column",)
