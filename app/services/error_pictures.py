"""A failed public test's error as a picture: inline SVG drawn with matplotlib, as the class
view's charts are (app/services/charts.py: no script, nothing for the content policy to allow).

The data is the test's ``error_map`` (graders/checks/error_map.py), computed when it was
judged; the pages show the same numbers in a table beside each picture. Hidden tests never
have one, and ``render`` and ``pictures`` read public tests only all the same.

A picture is drawn once, by the grading thread that graded the submission (``render``, from
app/grading/lifecycle.py), and stored with the result (app/store/pictures.py): drawing takes
0.2-0.7 s of CPU, which a page view must not cost. The grading threads are few and shared
fairly between learners, so a learner who fails many tests delays their own gradings only,
and one picture at a time is drawn per process (``DRAWING``), so drawing holds at most one
core and a process's other threads (its pages, ``/healthz``) keep their share of the
interpreter. A page reads the stored SVG (``of_submission``) and draws nothing; a test whose
picture is missing (it could not be drawn, or was graded before pictures were stored) shows
its table.

Only finite values reach matplotlib: NaN and infinities are masked and marked, each kind its
own marker, and values beyond ``LARGEST_DRAWN`` are drawn in units of a power of ten, where
matplotlib's arithmetic on limits and ticks overflowed ("Axis limits cannot be NaN or Inf"
from an output of ±1.7e308).
"""

from __future__ import annotations

import html
import logging
import math
import re
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
from sqlalchemy.orm import Session

from app.models import Submission
from app.services.charts import COLOURS, WIDTH_IN, svg_markup
from app.services.wording import N_, Wording
from app.store.pictures import pictures_of
from graders.api import ErrorMap, PictureKind, TestResult, Visibility

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

logger = logging.getLogger(__name__)

WORST_MARK = "#d62728"
NON_FINITE_MARK = "#333333"
GRID_HEIGHT_IN = 2.6
LINE_HEIGHT_IN = 2.4
LARGEST_DRAWN = 1e300
"""The largest magnitude drawn as it is: matplotlib overflowed from about 5e307."""
NON_FINITE = (("NaN", np.isnan, "x"), ("+∞", np.isposinf, "^"), ("−∞", np.isneginf, "v"))
"""Each kind of value that is not a number drawn: its name in the legend, test, marker."""
MAX_SVG_BYTES = 150_000
"""The most a stored picture may take; the largest drawn (16 x 16 cells of every kind of
value) takes about 60 000 bytes, a line 15 000. A larger one is not stored: its table is."""
EXPECTED, GOT, ERROR = N_("expected"), N_("got"), N_("|got − expected|")
"""The three panels of a grid picture."""
PICTURE_TITLE = N_("Error of test {name}")
"""The picture's title (its accessible name)."""
LARGEST_ERROR = N_("largest |got − expected|")
"""The line picture's vertical axis (a power of ten may follow it)."""
AXIS_WORDS = {
    "batch item": N_("batch item (axis {axis})"),
    "step": N_("step (axis {axis})"),
    "element": N_("element (axis {axis})"),
    "": N_("axis {axis}"),
}
"""The names the engine gives a drawn axis (graders/checks/error_map.py), by their kind."""
AXIS_NAME = re.compile(
    r"(?:(?P<kind>batch item|step|element) \(axis (?P<of>\d+)\)|axis (?P<n>\d+))"
)
TEXT_NODE = re.compile(r">([^<>]+)<")
DRAWING = threading.Lock()
"""Held while a picture is drawn: one at a time in a process, whatever its grading threads."""


@dataclass(frozen=True)
class ErrorPicture:
    """One picture of a test: its data (for the table) and its SVG, if one was drawn."""

    test: str
    data: ErrorMap
    svg: str | None
    title: str = ""
    """The test's name in the reader's language (``test`` when it has none)."""

    @property
    def is_grid(self) -> bool:
        return self.data.kind in (PictureKind.MATRIX, PictureKind.SLICE)

    @property
    def sampled(self) -> bool:
        """Whether part of the output is left out (every index drawn counts from 0 up)."""
        return any(ticks != tuple(range(len(ticks))) for ticks in self.data.ticks)


def render(tests: Sequence[TestResult]) -> dict[int, str]:
    """The SVG of each public test with an error map, by its position in ``tests``. A
    picture that cannot be drawn, or would pass ``MAX_SVG_BYTES``, is left out (logged):
    its page shows the table."""
    drawn = {}
    for position, test in enumerate(tests):
        if test.visibility is not Visibility.PUBLIC or test.error_map is None:
            continue
        try:
            with DRAWING:
                svg = draw(test.error_map, str(Wording(PICTURE_TITLE, {"name": test.name})))
        except Exception:  # a picture is never worth a grading or a page
            logger.exception("error_picture.not_drawn", extra={"test": test.name})
            continue
        if len(svg.encode()) > MAX_SVG_BYTES:
            logger.warning("error_picture.too_large", extra={"test": test.name, "bytes": len(svg)})
            continue
        drawn[position] = svg
    return drawn


def of_submission(*, session: Session, submission: Submission) -> list[ErrorPicture]:
    """The pictures of the result ``submission`` shows (none while it is not released)."""
    tests = submission.tests or []
    if not any(test.get("error_map") for test in tests):
        return []
    return pictures(tests, pictures_of(session=session, submission_id=submission.id))


def in_language(
    pictures: Iterable[ErrorPicture], lang: str, case_titles: Mapping[str, str]
) -> list[ErrorPicture]:
    """The pictures as a reader of ``lang`` reads them: the tests' names (``case_titles``),
    the axes' names and the drawn labels in that language. A picture is drawn once, in
    English; its labels are text (``svg_markup``), turned into the reader's words here."""
    return [
        replace(
            picture,
            title=case_titles.get(picture.test, picture.test),
            data=replace(
                picture.data,
                axes=tuple(axis_name_in(name, lang) for name in picture.data.axes),
                fixed=tuple((axis_name_in(n, lang), i) for n, i in picture.data.fixed),
            ),
            svg=None
            if picture.svg is None
            else _svg_in(picture.svg, picture.test, case_titles.get(picture.test), lang),
        )
        for picture in pictures
    ]


def _svg_in(svg: str, test: str, test_title: str | None, lang: str) -> str:
    """The stored SVG with its drawn labels and its title in ``lang``."""
    title = str(Wording(PICTURE_TITLE, {"name": test}))
    told = Wording(PICTURE_TITLE, {"name": test_title or test}).told_in(lang)
    return TEXT_NODE.sub(
        lambda m: (
            f">{html.escape(told, quote=False)}<"
            if html.unescape(m.group(1)) == title
            else f">{_label_in(m.group(1), lang)}<"
        ),
        svg,
    )


def axis_name_in(name: str, lang: str) -> str:
    """An axis's name as the engine writes it (``batch item (axis 0)``) in ``lang``."""
    found = AXIS_NAME.fullmatch(name)
    if found is None:
        return name
    kind = found["kind"] or ""
    return Wording(AXIS_WORDS[kind], {"axis": found["of"] or found["n"]}).told_in(lang)


def _label_in(escaped: str, lang: str) -> str:
    """One drawn text (escaped as the SVG holds it) in ``lang``: a panel's title, the line's
    vertical axis or an axis's name; any other text (a number, ×1e5) as it is."""
    text = html.unescape(escaped)
    if text in (EXPECTED, GOT, ERROR):
        text = Wording(text).told_in(lang)
    elif text.startswith(LARGEST_ERROR):
        text = Wording(LARGEST_ERROR).told_in(lang) + text.removeprefix(LARGEST_ERROR)
    else:
        text = axis_name_in(text, lang)
    return html.escape(text, quote=False)


def pictures(tests: Iterable[Mapping[str, Any]], drawn: Mapping[int, str]) -> list[ErrorPicture]:
    """The pictures of the stored tests (``TestResult.to_dict``) that have an error map, each
    with its stored SVG (``drawn``, by position), if any."""
    return [
        ErrorPicture(
            test["name"], ErrorMap.from_dict(test["error_map"]), drawn.get(position), test["name"]
        )
        for position, test in enumerate(tests)
        if test.get("visibility") == Visibility.PUBLIC.value and test.get("error_map")
    ]


def value_text(x: float, digits: int = 4) -> str:
    """A value as the tables write it (``digits`` significant; the messages' 3 for the worst
    error, as the message names it), or the name the picture's legend gives a value that is
    not a number."""
    for name, test, _ in NON_FINITE:
        if test(x):
            return name
    return f"{x:.{digits}g}"


def draw(data: ErrorMap, description: str) -> str:
    """The SVG of ``data``: three heatmaps (expected, got, error) or a line of errors."""
    if data.kind in (PictureKind.MATRIX, PictureKind.SLICE):
        return _grid_picture(data, description)
    return _line_picture(data, description)


def _grid_picture(data: ErrorMap, description: str) -> str:
    from matplotlib.figure import Figure

    figure = Figure(figsize=(WIDTH_IN, GRID_HEIGHT_IN), layout="constrained")
    panels = figure.subplots(1, 3)
    rows, columns = data.ticks
    worst = (rows.index(data.worst[-2]), columns.index(data.worst[-1]))
    # Expected and got share one colour scale, the error has its own.
    values, power = _drawable(np.array(data.expected), np.array(data.got))
    error, error_power = _drawable(np.array(data.error))
    for axes, grid, title, cmap, scale_power in (
        (panels[0], values[0], EXPECTED, "viridis", power),
        (panels[1], values[1], GOT, "viridis", power),
        (panels[2], error[0], ERROR, "Reds", error_power),
    ):
        low, high = _finite_range(*(values if cmap == "viridis" else error))
        # A small bitmap in the SVG (the policy allows data: images): vector cells and a
        # vector colour bar took seven times the bytes.
        image = axes.imshow(
            grid,
            cmap=cmap,
            aspect="auto",
            interpolation="nearest",
            vmin=0.0 if cmap == "Reds" else low,
            vmax=high,
        )
        scale = figure.colorbar(image, ax=axes, shrink=0.8)
        scale.ax.tick_params(labelsize="x-small")
        if scale_power:
            scale.ax.set_title(f"×1e{scale_power}", fontsize="x-small")
        axes.set_title(title, fontsize="small")
        _index_ticks(axes, rows, columns, data.axes)
        _mark_non_finite(axes, grid)
        axes.plot(
            worst[1],
            worst[0],
            marker="s",
            markersize=9,
            fillstyle="none",
            color=WORST_MARK,
            markeredgewidth=1.5,
        )
    _non_finite_legend(figure, values[0], values[1], error[0])
    return svg_markup(figure, description)


def _line_picture(data: ErrorMap, description: str) -> str:
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    figure = Figure(figsize=(WIDTH_IN, LINE_HEIGHT_IN), layout="constrained")
    axes = figure.subplots()
    axes.spines[["top", "right"]].set_visible(False)
    steps = data.ticks[0]
    (errors,), power = _drawable(np.array(data.error[0]))
    axes.plot(steps, errors, marker="o" if len(steps) <= 30 else "", markersize=3, color=COLOURS[0])
    step, worst = _worst_point(data)
    if math.isfinite(worst):
        axes.plot(
            step,
            worst / 10.0**power,
            marker="o",
            markersize=7,
            fillstyle="none",
            color=WORST_MARK,
            markeredgewidth=1.5,
        )
    axes.set_xlabel(data.axes[0], fontsize="small")
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))  # indices: no tick at 0.2
    unit = f" (×1e{power})" if power else ""
    axes.set_ylabel(f"{LARGEST_ERROR}{unit}", fontsize="small")
    axes.set_ylim(0, _finite_range(errors)[1] * 1.05 or 1.0)
    axes.grid(axis="y", color="#dddddd", linewidth=0.6)
    # A step whose error is not a number: its marker on the top edge, above the line.
    for _, test, marker in NON_FINITE:
        where = test(errors.data) & errors.mask
        if where.any():
            axes.plot(
                np.array(steps)[where],
                np.ones(int(where.sum())),
                transform=axes.get_xaxis_transform(),
                linestyle="none",
                marker=marker,
                color=NON_FINITE_MARK,
                clip_on=False,
            )
    _non_finite_legend(figure, errors)
    return svg_markup(figure, description)


def _drawable(*grids: npt.NDArray[np.float64]) -> tuple[list[np.ma.MaskedArray[Any, Any]], int]:
    """``grids`` with their NaN and infinities masked, in units of ``10 ** power`` (0 unless
    a finite value's magnitude passes ``LARGEST_DRAWN``): only finite values of a size
    matplotlib computes with are drawn."""
    largest = max(
        (float(np.abs(grid[np.isfinite(grid)]).max(initial=0.0)) for grid in grids), default=0.0
    )
    power = math.floor(math.log10(largest)) if largest > LARGEST_DRAWN else 0
    return [np.ma.masked_invalid(grid / 10.0**power) for grid in grids], power


def _finite_range(*grids: np.ma.MaskedArray[Any, Any]) -> tuple[float, float]:
    """The lowest and highest drawn values of ``grids``; (0, 1) where none is finite."""
    finite = [grid.compressed() for grid in grids if grid.count()]
    if not finite:
        return 0.0, 1.0
    return min(float(f.min()) for f in finite), max(float(f.max()) for f in finite)


def _mark_non_finite(axes: Axes, grid: np.ma.MaskedArray[Any, Any]) -> None:
    """A marker on each cell that is not a number (the heatmap leaves it blank)."""
    for _, test, marker in NON_FINITE:
        rows, columns = np.nonzero(test(grid.data) & np.ma.getmaskarray(grid))
        if len(rows):
            axes.plot(
                columns,
                rows,
                linestyle="none",
                marker=marker,
                markersize=5,
                color=NON_FINITE_MARK,
            )


def _non_finite_legend(figure: Figure, *grids: np.ma.MaskedArray[Any, Any]) -> None:
    """Under the picture, the marker of each kind of value that is not a number it holds."""
    from matplotlib.lines import Line2D

    shown = [
        Line2D([], [], linestyle="none", marker=marker, color=NON_FINITE_MARK, label=name)
        for name, test, marker in NON_FINITE
        if any((test(grid.data) & np.ma.getmaskarray(grid)).any() for grid in grids)
    ]
    if shown:
        figure.legend(
            handles=shown, loc="outside lower center", ncols=3, fontsize="x-small", frameon=False
        )


def _worst_point(data: ErrorMap) -> tuple[int, float]:
    """Where the line marks the worst element, the one the test's message names: over the run
    of steps holding it, at its own error (under the run's largest error where another
    element is further from its value but less far outside its tolerance)."""
    (axis,), steps = data.axis_numbers, data.ticks[0]
    run = max(start for start in steps if start <= data.worst[axis])
    return run, data.worst_error


def _index_ticks(
    axes: Axes, rows: tuple[int, ...], columns: tuple[int, ...], names: tuple[str, ...]
) -> None:
    """The output's own indices on the axes (a sampled matrix skips some)."""
    every_row = max(1, len(rows) // 6)
    every_column = max(1, len(columns) // 6)
    axes.set_yticks(range(0, len(rows), every_row), [str(r) for r in rows[::every_row]])
    axes.set_xticks(range(0, len(columns), every_column), [str(c) for c in columns[::every_column]])
    axes.tick_params(labelsize="x-small")
    axes.set_ylabel(names[0], fontsize="x-small")
    axes.set_xlabel(names[1], fontsize="x-small")
