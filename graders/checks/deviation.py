"""Where an array's values are outside tolerance, computed once: the values check's message
names its worst element and error (graders/checks/compare.py), and a public test's error
picture draws the same element, error and tolerance (graders/checks/error_map.py).

The worst element is the one furthest outside its allowance (``atol + rtol * |expected|``),
as ``numpy.allclose`` measures closeness, not the one with the largest absolute error: an
error of 0.5 on an expected 0.01 is worse than an error of 0.9 on an expected 1000.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from graders.checks.tolerance import Tolerance


@dataclass(frozen=True, eq=False)
class Deviation:
    """The comparison of two arrays of one shape that found elements outside tolerance."""

    expected: npt.NDArray[Any]
    """As compared: float64, or complex128 where either side is complex."""
    got: npt.NDArray[Any]
    error: npt.NDArray[np.float64]
    """``|got − expected|``; 0 where they agree though the difference is not a number (NaN
    where NaN is expected, the expected infinity)."""
    outside: npt.NDArray[np.bool_]
    """The elements outside tolerance."""
    worst: tuple[int, ...]
    tolerance: Tolerance
    batch_axis: int | None = None
    """The output's batch axis, where the case is batched."""

    @property
    def worst_error(self) -> float:
        return float(self.error[self.worst])


def deviation(
    expected: np.ndarray, got: np.ndarray, tolerance: Tolerance, batch_axis: int | None = None
) -> Deviation | None:
    """Where ``got`` is outside ``tolerance`` of ``expected`` (numbers of one shape), or
    ``None`` where every element is within it."""
    kind = np.complex128 if "c" in (expected.dtype.kind, got.dtype.kind) else np.float64
    want = expected.astype(kind, copy=False)
    have = got.astype(kind, copy=False)
    with np.errstate(invalid="ignore", over="ignore"):
        error = np.abs(have - want)
        allowed = tolerance.atol + tolerance.rtol * np.abs(want)
        # The common case, every element finite and close, decided in one pass. NaN fails
        # the comparison; an expected infinity makes the allowance infinite: both take the
        # full path below.
        if bool((error <= allowed).all()) and bool(np.isfinite(allowed).all()):
            return None
        both_nan = np.isnan(want) & np.isnan(have)
        same_inf = np.isinf(want) & (want == have)
        # An expected infinity is matched only by the same infinity, whatever the tolerance.
        outside = (~(both_nan | same_inf) & ~(error <= allowed)) | (np.isinf(want) & ~same_inf)
    if not outside.any():
        return None
    # A huge error over a tiny allowance overflows to inf: still the worst, as it should be.
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        excess = np.where(outside, np.nan_to_num(error / allowed, nan=np.inf, posinf=np.inf), -1)
    worst = tuple(int(i) for i in np.unravel_index(int(np.argmax(excess)), excess.shape))
    error = np.where(both_nan | same_inf, 0.0, error)
    return Deviation(want, have, error, outside, worst, tolerance, batch_axis)
