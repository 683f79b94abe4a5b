"""Where a public test's output is wrong, as data a page or a client can draw.

Computed on the trusted side from a public case's expected output and the learner's output
(expected outputs never enter the sandbox), only when the values were compared and found
wrong. The picture depends on the output's shape:

- a batched case: the largest error of each batch item (a line over the output batch axis);
- a sequence (an exercise tagged ``sequence``, its outputs time-first) or a vector: the
  largest error of each step or element (a line over axis 0);
- a matrix: the error of each element beside the expected and the learner's values;
- three axes or more: the matrix of the last two axes that holds the worst element, the
  other axes' indices named.

What is stored stays bounded: at most ``MAX_SIDE`` rows and columns of a matrix (evenly
spread, the worst row and column always among them) and ``MAX_POINTS`` points of a line (the
largest error of each run of steps). An output of at most ``SMALL_OUTPUT`` elements gets no
picture: its message already names every wrong value worth naming.

NaN and infinities stay what they are (an expected NaN the output misses, an error that
overflowed): the picture and its table show them as such. Where the comparison counts an
element right although its difference is not a number (NaN where NaN is expected, the
expected infinity), its error is 0. ``to_dict`` writes them as the strings ``"NaN"``,
``"Infinity"`` and ``"-Infinity"``: JSON has no such numbers, and PostgreSQL and the API's
encoder refuse them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

import numpy as np
import numpy.typing as npt

NON_FINITE_TEXT = {"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}

MAX_SIDE = 16
MAX_POINTS = 120
SMALL_OUTPUT = 6
SEQUENCE_TAG = "sequence"
DIGITS = 6
"""Significant digits kept of each number: enough to read, small to store."""


class PictureKind(Enum):
    """How the error of an output is drawn."""

    MATRIX = "matrix"
    """The error of each element of a 2-D output, beside its expected and got values."""
    SEQUENCE = "sequence"
    """The largest error at each step (index of axis 0) as a line."""
    BATCH = "batch"
    """The largest error of each batch item as a line."""
    SLICE = "slice"
    """A 2-D slice of an output of three axes or more, the one holding the worst element."""


Grid = tuple[tuple[float, ...], ...]


@dataclass(frozen=True)
class ErrorMap:
    """A public test's wrong output, reduced to what its picture and table show.

    ``axes`` names the drawn axes (two for a matrix or slice, one for a line) and ``ticks``
    holds, for each, the output's index of every drawn row, column or point. ``fixed`` names
    the indices of a slice's other axes. ``worst`` is the index of the largest error in the
    whole output. ``error`` is a grid (matrix, slice) or a single row (line); ``expected`` and
    ``got`` are grids of the drawn elements, empty for a line.
    """

    kind: PictureKind
    shape: tuple[int, ...]
    axes: tuple[str, ...]
    ticks: tuple[tuple[int, ...], ...]
    worst: tuple[int, ...]
    worst_error: float
    error: Grid
    expected: Grid = ()
    got: Grid = ()
    fixed: tuple[tuple[str, int], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        def grid(rows: Grid) -> list[list[float | str]]:
            return [[_json_number(x) for x in row] for row in rows]

        return {
            "kind": self.kind.value,
            "shape": list(self.shape),
            "axes": list(self.axes),
            "ticks": [list(ticks) for ticks in self.ticks],
            "worst": list(self.worst),
            "worst_error": _json_number(self.worst_error),
            "error": grid(self.error),
            "expected": grid(self.expected),
            "got": grid(self.got),
            "fixed": [{"axis": axis, "index": index} for axis, index in self.fixed],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ErrorMap:
        def grid(rows: list[list[float | str]]) -> Grid:
            return tuple(tuple(float(x) for x in row) for row in rows)

        return cls(
            kind=PictureKind(data["kind"]),
            shape=tuple(int(n) for n in data["shape"]),
            axes=tuple(str(axis) for axis in data["axes"]),
            ticks=tuple(tuple(int(i) for i in ticks) for ticks in data["ticks"]),
            worst=tuple(int(i) for i in data["worst"]),
            worst_error=float(data["worst_error"]),
            error=grid(data["error"]),
            expected=grid(data.get("expected", [])),
            got=grid(data.get("got", [])),
            fixed=tuple((str(f["axis"]), int(f["index"])) for f in data.get("fixed", [])),
        )


def error_map(
    expected: Any, got: Any, *, batch_axis: int | None = None, tags: tuple[str, ...] = ()
) -> ErrorMap | None:
    """The picture data of a wrong output, or ``None`` where there is nothing to draw: not
    two real numeric arrays of one shape, or a small output."""
    if not isinstance(expected, np.ndarray) or not isinstance(got, np.ndarray):
        return None
    if expected.shape != got.shape or expected.size <= SMALL_OUTPUT:
        return None
    if not all(a.dtype.kind in "iuf" for a in (expected, got)):
        return None  # complex outputs too: a heatmap of their real part would mislead
    with np.errstate(all="ignore"):
        want = expected.astype(np.float64)
        have = got.astype(np.float64)
        error = np.abs(have - want)
    error[(np.isnan(want) & np.isnan(have)) | (np.isinf(want) & (want == have))] = 0.0
    worst = tuple(int(i) for i in np.unravel_index(int(np.argmax(error)), error.shape))
    worst_error = _round(float(error[worst]))
    if batch_axis is not None and 0 <= batch_axis < error.ndim:
        return _line(PictureKind.BATCH, "batch item", error, batch_axis, worst, worst_error)
    if error.ndim == 1 or SEQUENCE_TAG in tags:
        name = "element" if error.ndim == 1 else "step"
        return _line(PictureKind.SEQUENCE, name, error, 0, worst, worst_error)
    if error.ndim == 2:
        return _grid(PictureKind.MATRIX, want, have, error, worst, worst_error, (), error.shape)
    lead = worst[:-2]
    fixed = tuple((f"axis {axis}", index) for axis, index in enumerate(lead))
    return _grid(
        PictureKind.SLICE,
        want[lead],
        have[lead],
        error[lead],
        worst,
        worst_error,
        fixed,
        error.shape,
    )


def _round(x: float) -> float:
    return float(f"{x:.{DIGITS}g}")


def _json_number(x: float) -> float | str:
    """``x``, or its name where JSON has no number for it (``float`` reads the name back)."""
    return NON_FINITE_TEXT.get(str(x), x)


def _line(
    kind: PictureKind,
    name: str,
    error: npt.NDArray[np.float64],
    axis: int,
    worst: tuple[int, ...],
    worst_error: float,
) -> ErrorMap:
    per_step = np.moveaxis(error, axis, 0).reshape(error.shape[axis], -1).max(axis=1)
    # Runs of steps, each drawn as its largest error: a narrow spike survives the reduction.
    width = -(-len(per_step) // MAX_POINTS)
    starts = range(0, len(per_step), width)
    values = tuple(_round(float(per_step[s : s + width].max())) for s in starts)
    return ErrorMap(
        kind=kind,
        shape=error.shape,
        axes=(f"{name} (axis {axis})",),
        ticks=(tuple(starts),),
        worst=worst,
        worst_error=worst_error,
        error=(values,),
    )


def _spread(size: int, keep: int) -> tuple[int, ...]:
    """At most ``MAX_SIDE`` indices of an axis of ``size``, evenly spread, ``keep`` among them."""
    if size <= MAX_SIDE:
        return tuple(range(size))
    chosen = set(np.linspace(0, size - 1, MAX_SIDE - 1).round().astype(int).tolist())
    return tuple(sorted(chosen | {keep}))


def _grid(
    kind: PictureKind,
    want: npt.NDArray[np.float64],
    have: npt.NDArray[np.float64],
    error: npt.NDArray[np.float64],
    worst: tuple[int, ...],
    worst_error: float,
    fixed: tuple[tuple[str, int], ...],
    shape: tuple[int, ...],
) -> ErrorMap:
    rows = _spread(error.shape[0], worst[-2])
    columns = _spread(error.shape[1], worst[-1])

    def picked(values: npt.NDArray[np.float64]) -> Grid:
        return tuple(tuple(_round(float(values[r, c])) for c in columns) for r in rows)

    first = len(fixed)
    return ErrorMap(
        kind=kind,
        shape=shape,
        axes=(f"axis {first}", f"axis {first + 1}"),
        ticks=(rows, columns),
        worst=worst,
        worst_error=worst_error,
        error=picked(error),
        expected=picked(want),
        got=picked(have),
        fixed=fixed,
    )
