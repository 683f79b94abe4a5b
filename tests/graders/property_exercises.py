"""An exercise folder judged by property cases: any orthonormal basis of a matrix's column
space is right, so its cases have no reference comparison, only checks (docs/authoring.md,
"Property cases")."""

from __future__ import annotations

from pathlib import Path

from tests.graders.typed_exercises import make_folder

BASIS_SOLUTION = """
import numpy as np


def column_basis(a):
    u, s, _ = np.linalg.svd(a, full_matrices=False)
    rank = int(np.sum(s > s.max(initial=0.0) * max(a.shape) * np.finfo(a.dtype).eps))
    return u[:, :rank]
"""

BASIS_CASES = """
import numpy as np

from graders.cases import property_case


def not_a_basis(a, got):
    # Nothing compares the output with a reference: the checks read its type and shape, the
    # number of columns too before any product (a check runs outside the sandbox's limits).
    if not isinstance(got, np.ndarray) or got.ndim != 2 or got.shape[0] != a.shape[0]:
        shape = getattr(got, "shape", None)
        return f"expected a 2-d array with {a.shape[0]} rows, got {type(got).__name__} {shape}"
    if got.shape[1] > min(a.shape):
        return f"{got.shape[1]} columns, more than a basis of {min(a.shape)} dimensions at most"
    return None


def orthonormal_columns(inputs, got):
    problem = not_a_basis(inputs["a"], got)
    if problem:
        return problem
    gram = got.T @ got
    error = float(np.abs(gram - np.eye(got.shape[1])).max(initial=0.0))
    if not error <= 1e-8:
        return f"q.T @ q differs from the identity by up to {error:.3g}"
    return None


def spans_the_columns(inputs, got):
    a = inputs["a"]
    problem = not_a_basis(a, got)
    if problem:
        return problem
    rank = int(np.linalg.matrix_rank(a))
    if got.shape[1] != rank:
        return f"{got.shape[1]} columns, but the columns of a span {rank} dimensions"
    coefficients = np.linalg.lstsq(got, a, rcond=None)[0]
    residual = float(np.abs(got @ coefficients - a).max(initial=0.0))
    if not residual <= 1e-8 * max(1.0, float(np.abs(a).max(initial=0.0))):
        return f"a column of a is not a combination of the columns (residual {residual:.3g})"
    return None


BASIS = [orthonormal_columns, spans_the_columns]


def of_rank(rng, rows, columns, rank):
    return rng.normal(size=(rows, rank)) @ rng.normal(size=(rank, columns))


@property_case(public=True, checks=BASIS)
def two_columns(rng):
    return {"a": np.array([[1.0, 2.0], [2.0, 0.0], [0.0, 1.0]])}


@property_case(points=2, checks=BASIS)
def tall_full_rank(rng):
    return {"a": rng.normal(size=(6, 3))}


@property_case(points=2, checks=BASIS)
def dependent_columns(rng):
    return {"a": of_rank(rng, 5, 4, 2)}


@property_case(points=2, checks=BASIS)
def wide_of_rank_three(rng):
    return {"a": of_rank(rng, 4, 7, 3)}
"""

NOT_NORMALISED = """
import numpy as np

HINT = (
    "Your columns are orthogonal and span the right space, but they do not have length one: "
    "an orthonormal basis needs each column divided by its norm."
)


def column_basis(a):
    u, s, _ = np.linalg.svd(a, full_matrices=False)
    rank = int(np.sum(s > s.max(initial=0.0) * max(a.shape) * np.finfo(a.dtype).eps))
    return u[:, :rank] * s[:rank]
"""

EVERY_COLUMN = """
import numpy as np

HINT = (
    "Your columns are orthonormal, but there is one per column of a: when a's columns are "
    "dependent they span fewer dimensions (the rank of a), and the basis has that many columns."
)


def column_basis(a):
    q, _ = np.linalg.qr(a)
    return q
"""


def make_column_basis(root: Path) -> Path:
    """``column_basis(a)``: any orthonormal basis of the column space of ``a``, judged by the
    checks ``orthonormal columns`` and ``spans the columns``, with two mistakes each caught
    by one check only."""
    folder = make_folder(root, "column-basis", "column_basis", "", BASIS_SOLUTION, BASIS_CASES)
    (folder / "mistakes").mkdir()
    (folder / "mistakes" / "not_normalised.py").write_text(NOT_NORMALISED, encoding="utf-8")
    (folder / "mistakes" / "every_column.py").write_text(EVERY_COLUMN, encoding="utf-8")
    return folder


DROPOUT_SOLUTION = """
def dropout(x, p, rng):
    keep = rng.random(x.shape) >= p
    return x * keep / (1 - p)
"""

DROPOUT_CASES = '''
import numpy as np

from graders.cases import property_case

FALSE_FAILURE_RATE = 1e-6


def a_share_p_dropped(inputs, got):
    """Fails a correct solution with probability at most FALSE_FAILURE_RATE over the draws:
    by Hoeffding's inequality the share of n independent drops is further than t from p with
    probability at most 2 exp(-2 n t**2)."""
    x, p = inputs["x"], inputs["p"]
    if not isinstance(got, np.ndarray) or got.shape != x.shape:
        return f"expected an array of shape {x.shape}, got {type(got).__name__}"
    t = np.sqrt(np.log(2 / FALSE_FAILURE_RATE) / (2 * x.size))
    share = float(np.mean(got == 0))
    if not abs(share - p) <= t:
        return f"{share:.3f} of the entries are dropped, expected {p} within {t:.3f}"
    return None


def kept_entries_scaled(inputs, got):
    x, p = inputs["x"], inputs["p"]
    if not isinstance(got, np.ndarray) or got.shape != x.shape:
        return f"expected an array of shape {x.shape}, got {type(got).__name__}"
    kept = got != 0
    if not np.allclose(got[kept], x[kept] / (1 - p)):
        return "the entries kept are not x / (1 - p)"
    return None


DROPOUT = [a_share_p_dropped, kept_entries_scaled]


@property_case(public=True, checks=DROPOUT)
def a_fifth(rng):
    return {"x": rng.normal(size=(100, 100)), "p": 0.2, "rng": rng}


@property_case(points=2, checks=DROPOUT)
def most(rng):
    return {"x": rng.normal(size=(50, 200)), "p": 0.7, "rng": rng}
'''

KEEP_WITH_P = """
HINT = "p is the probability of dropping an entry, not of keeping it."


def dropout(x, p, rng):
    keep = rng.random(x.shape) < p
    return x * keep / (1 - p)
"""


def make_random_dropout(root: Path) -> Path:
    """``dropout(x, p, rng)`` whose draws the statement leaves free: judged by statistics of
    the output, with a stated false-failure rate of 1e-6 for a correct solution."""
    folder = make_folder(root, "free-dropout", "dropout", "", DROPOUT_SOLUTION, DROPOUT_CASES)
    (folder / "mistakes").mkdir()
    (folder / "mistakes" / "keep_with_p.py").write_text(KEEP_WITH_P, encoding="utf-8")
    return folder
