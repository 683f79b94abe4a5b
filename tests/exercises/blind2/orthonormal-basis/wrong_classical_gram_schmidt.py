"""Classical Gram-Schmidt with an absolute 1e-10 cut-off on the residual norm: loses orthogonality and rank on ill-conditioned or small matrices."""
import numpy as np


def orthonormal_basis(a):
    m, n = a.shape
    basis = np.zeros((m, 0))
    for j in range(n):
        col = a[:, j]
        resid = col - basis @ (basis.T @ col)
        norm = np.linalg.norm(resid)
        if norm > 1e-10:
            basis = np.column_stack([basis, resid / norm])
    return basis
