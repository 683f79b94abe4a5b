"""Where a public test's output is wrong, as data a page or a client can draw.

Computed on the trusted side from the values check's own ``Deviation`` of a public case's
expected output and the learner's output (expected outputs never enter the sandbox), so the
picture marks the worst element, error and tolerance its message names. The picture depends
on the output's shape:

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
expected infinity), its error is 0 (``Deviation.error``). ``to_dict`` writes them as the
strings ``"NaN"``, ``"Infinity"`` and ``"-Infinity"``: JSON has no such numbers, and
PostgreSQL and the API's encoder refuse them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

import numpy as np
import numpy.typing as npt

from graders.checks.deviation import Deviation
from graders.checks.tolerance import Tolerance

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
    the indices of a slice's other axes. ``worst`` is the index in the whole output of the
    element furthest outside ``tolerance``, the one the test's message names, and
    ``worst_error`` its error. ``error`` is a grid (matrix, slice) or a single row (line);
    ``expected`` and ``got`` are grids of the drawn elements, empty for a line.
    """

    kind: PictureKind
    shape: tuple[int, ...]
    axes: tuple[str, ...]
    ticks: tuple[tuple[int, ...], ...]
    worst: tuple[int, ...]
    worst_error: float
    tolerance: Tolerance | None
    """None in a map stored before maps kept theirs."""
    error: Grid
    expected: Grid = ()
    got: Grid = ()
    fixed: tuple[tuple[str, int], ...] = ()

    @property
    def axis_numbers(self) -> tuple[int, ...]:
        """The output's axis of each drawn axis (each name ends with it: ``axis 1``,
        ``batch item (axis 1)``)."""
        return tuple(int(name.rstrip(")").rsplit(" ", 1)[-1]) for name in self.axes)

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
            "tolerance": (
                {"rtol": self.tolerance.rtol, "atol": self.tolerance.atol}
                if self.tolerance
                else None
            ),
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
            tolerance=Tolerance(**data["tolerance"]) if data.get("tolerance") else None,
        )


def error_map(found: Deviation, *, tags: tuple[str, ...] = ()) -> ErrorMap | None:
    """The picture data of the values check's ``found``, or ``None`` where there is nothing
    to draw: a small output, or a complex one (a heatmap of its real part would mislead)."""
    error = found.error
    if error.size <= SMALL_OUTPUT or found.expected.dtype.kind == "c":
        return None
    if found.batch_axis is not None and 0 <= found.batch_axis < error.ndim:
        return _line(PictureKind.BATCH, "batch item", found, found.batch_axis)
    if error.ndim == 1 or SEQUENCE_TAG in tags:
        return _line(PictureKind.SEQUENCE, "element" if error.ndim == 1 else "step", found, 0)
    if error.ndim == 2:
        return _grid(PictureKind.MATRIX, found, ())
    return _grid(PictureKind.SLICE, found, found.worst[:-2])


def _round(x: float) -> float:
    return float(f"{x:.{DIGITS}g}")


def _json_number(x: float) -> float | str:
    """``x``, or its name where JSON has no number for it (``float`` reads the name back)."""
    return NON_FINITE_TEXT.get(str(x), x)


def _line(kind: PictureKind, name: str, found: Deviation, axis: int) -> ErrorMap:
    error = found.error
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
        worst=found.worst,
        worst_error=found.worst_error,  # unrounded: the message's own number
        error=(values,),
        tolerance=found.tolerance,
    )


def _spread(size: int, keep: int) -> tuple[int, ...]:
    """At most ``MAX_SIDE`` indices of an axis of ``size``, evenly spread, ``keep`` among them."""
    if size <= MAX_SIDE:
        return tuple(range(size))
    chosen = set(np.linspace(0, size - 1, MAX_SIDE - 1).round().astype(int).tolist())
    return tuple(sorted(chosen | {keep}))


def _grid(kind: PictureKind, found: Deviation, lead: tuple[int, ...]) -> ErrorMap:
    """The matrix of the last two axes at ``lead`` (the worst element's indices on the
    others), at most ``MAX_SIDE`` rows and columns of it."""
    rows = _spread(found.error.shape[-2], found.worst[-2])
    columns = _spread(found.error.shape[-1], found.worst[-1])

    def picked(values: npt.NDArray[np.float64]) -> Grid:
        return tuple(tuple(_round(float(values[lead][r, c])) for c in columns) for r in rows)

    return ErrorMap(
        kind=kind,
        shape=found.error.shape,
        axes=(f"axis {len(lead)}", f"axis {len(lead) + 1}"),
        ticks=(rows, columns),
        worst=found.worst,
        worst_error=found.worst_error,  # unrounded: the message's own number
        error=picked(found.error),
        expected=picked(found.expected),
        got=picked(found.got),
        fixed=tuple((f"axis {axis}", index) for axis, index in enumerate(lead)),
        tolerance=found.tolerance,
    )
