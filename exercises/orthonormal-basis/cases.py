"""Test cases of the orthonormal basis: judged by property checks alone.

Every basis of the space is right, so no output is compared with the reference's. Each case
checks three properties, each its own check: the columns are orthonormal, they span the
columns of ``a``, and there are as many of them as the rank of ``a``. Matrices of every
rank below full (down to the zero matrix) tell a basis from a QR factor that keeps every
column; entries of 1e-6 and 1e6 tell a rank threshold that is relative from one that is not.
"""

import numpy as np

from graders.cases import property_case

# Rounding: an orthonormal basis computed in float64 has q.T @ q within about 1e-15 of the
# identity, and reproduces a's columns to about 1e-15 of their size; these bounds leave room
# for any stable method, and not for a wrong answer.
ORTHONORMAL_TOLERANCE = 1e-8
SPAN_TOLERANCE = 1e-8


def not_a_basis(a, got):
    # Nothing compares the output with a reference: each check reads its type and shape,
    # and the number of columns before any product (checks run outside the sandbox's limits).
    if not isinstance(got, np.ndarray) or got.ndim != 2 or got.shape[0] != a.shape[0]:
        shape = getattr(got, "shape", None)
        return f"expected a 2-d array with {a.shape[0]} rows, got {type(got).__name__} {shape}"
    if got.shape[1] > min(a.shape):
        return f"{got.shape[1]} columns, more than the {min(a.shape)} a basis can have at most"
    if not np.issubdtype(got.dtype, np.floating) or not np.all(np.isfinite(got)):
        return f"expected finite floating-point values, got dtype {got.dtype}"
    return None


def orthonormal_columns(inputs, got):
    problem = not_a_basis(inputs["a"], got)
    if problem:
        return problem
    gram = got.T @ got
    error = float(np.abs(gram - np.eye(got.shape[1])).max(initial=0.0))
    if not error <= ORTHONORMAL_TOLERANCE:
        return f"q.T @ q differs from the identity by up to {error:.3g}"
    return None


def spans_the_columns(inputs, got):
    a = inputs["a"]
    problem = not_a_basis(a, got)
    if problem:
        return problem
    # The projection of a on the columns of q: a column outside their span leaves a residual.
    if got.shape[1]:
        coefficients = np.linalg.lstsq(got, a, rcond=None)[0]
    else:  # the basis of {0}: every combination is 0
        coefficients = np.zeros((0, a.shape[1]))
    residual = float(np.abs(got @ coefficients - a).max(initial=0.0))
    scale = max(1.0, float(np.abs(a).max(initial=0.0)))
    if not residual <= SPAN_TOLERANCE * scale:
        return f"a column of a is not a combination of the columns of q (residual {residual:.3g})"
    return None


def as_many_columns_as_the_rank(inputs, got):
    a = inputs["a"]
    problem = not_a_basis(a, got)
    if problem:
        return problem
    rank = int(np.linalg.matrix_rank(a))
    if got.shape[1] != rank:
        return f"{got.shape[1]} columns, but the columns of a span {rank} dimensions"
    return None


BASIS = [orthonormal_columns, spans_the_columns, as_many_columns_as_the_rank]


def of_rank(rng, rows, columns, rank, scale=1.0):
    return scale * (rng.normal(size=(rows, rank)) @ rng.normal(size=(rank, columns)))


@property_case(public=True, points=1, checks=BASIS)
def worked_example(rng):
    # The statement's worked example: the second column is twice the first.
    return {"a": np.array([[3.0, 6.0], [4.0, 8.0], [0.0, 0.0]])}


@property_case(public=True, points=1, checks=BASIS)
def two_independent_columns(rng):
    return {"a": np.array([[1.0, 2.0], [2.0, 0.0], [0.0, 1.0]])}


@property_case(points=2, checks=BASIS)
def tall_full_rank(rng):
    return {"a": rng.normal(size=(7, 3))}


@property_case(points=2, checks=BASIS)
def square_full_rank(rng):
    return {"a": rng.normal(size=(5, 5))}


@property_case(points=2, checks=BASIS)
def tall_of_rank_two(rng):
    return {"a": of_rank(rng, 6, 4, 2)}


@property_case(points=2, checks=BASIS)
def wide_of_rank_three(rng):
    return {"a": of_rank(rng, 4, 7, 3)}


@property_case(points=2, checks=BASIS)
def wide_full_rank(rng):
    return {"a": rng.normal(size=(3, 6))}


@property_case(points=2, checks=BASIS)
def square_of_rank_one(rng):
    return {"a": of_rank(rng, 5, 5, 1)}


@property_case(points=2, checks=BASIS)
def the_zero_matrix(rng):
    # Rank 0: the basis of {0} has no columns, an array of shape (4, 0).
    return {"a": np.zeros((4, 3))}


@property_case(points=2, checks=BASIS)
def a_repeated_column(rng):
    column = rng.normal(size=(6, 1))
    return {"a": np.hstack([column, rng.normal(size=(6, 2)), column])}


@property_case(points=2, checks=BASIS)
def dependent_first_columns(rng):
    # The second column is twice the first: the first r columns of a factorisation that keeps
    # the columns' order (a plain QR) do not span the columns of a.
    column = rng.normal(size=(6, 1))
    return {"a": np.hstack([column, 2.0 * column, rng.normal(size=(6, 2))])}


@property_case(points=2, checks=BASIS)
def ill_conditioned_full_rank(rng):
    # Full rank, its smaller singular value about 5e-9 of the larger: far above the rank
    # threshold (about 1e-15 of it), but its square is below rounding, so a method that squares
    # the singular values (the eigenvalues of a @ a.T) loses a column.
    return {"a": np.array([[1.0, 1.0], [1.0, 1.0 + 1e-8]])}


@property_case(points=2, checks=BASIS)
def singular_values_from_one_to_a_billionth(rng):
    # A random 5 x 4 matrix of full rank with singular values 1, 1e-3, 1e-6 and 1e-9.
    left, _ = np.linalg.qr(rng.normal(size=(5, 4)))
    right, _ = np.linalg.qr(rng.normal(size=(4, 4)))
    return {"a": left @ np.diag([1.0, 1e-3, 1e-6, 1e-9]) @ right.T}


@property_case(points=2, checks=BASIS)
def tiny_entries_of_rank_two(rng):
    # Entries of about 1e-6: a threshold of 1e-10 in absolute terms would still work, but
    # one of 1e-5 would call every column zero.
    return {"a": of_rank(rng, 6, 5, 2, scale=1e-6)}


@property_case(points=2, checks=BASIS)
def huge_entries_of_rank_two(rng):
    # Entries of about 1e6: the rounding errors of the zero singular values are near 1e-9,
    # above any absolute threshold such as 1e-10.
    return {"a": of_rank(rng, 6, 5, 2, scale=1e6)}


@property_case(points=2, checks=BASIS)
def one_row(rng):
    # m = 1, which the statement allows: a nonzero row spans the line of R^1, one column.
    return {"a": rng.normal(size=(1, 5))}


@property_case(points=2, checks=BASIS)
def one_column(rng):
    # n = 1: the basis is the column divided by its norm, the largest shape the statement
    # allows along m.
    return {"a": rng.normal(size=(8, 1))}


@property_case(points=2, checks=BASIS)
def columns_of_very_different_sizes(rng):
    # Full rank, its columns of norms about 1e4 and 1e-4: the smaller is far above the rank
    # threshold (relative to the largest singular value, about 1e-11 here), so a threshold
    # on each column's own residual or an absolute one of 1e-3 drops it wrongly.
    return {"a": np.hstack([1e4 * rng.normal(size=(6, 1)), 1e-4 * rng.normal(size=(6, 1))])}
