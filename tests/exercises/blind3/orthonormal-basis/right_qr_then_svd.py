"""Orthonormal basis from a reduced QR followed by an SVD of the small R factor (same singular values as a)."""
import numpy as np


def orthonormal_basis(a):
    q0, r_factor = np.linalg.qr(a, mode="reduced")
    u_r, s, _ = np.linalg.svd(r_factor)
    if s.size == 0 or s[0] == 0.0:
        return np.zeros((a.shape[0], 0))
    rank = int(np.count_nonzero(s > max(a.shape) * np.finfo(np.float64).eps * s[0]))
    return q0 @ u_r[:, :rank]
