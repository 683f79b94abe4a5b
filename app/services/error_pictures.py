"""A failed public test's error as a picture: inline SVG drawn on the server with matplotlib,
as the class view's charts are (app/services/charts.py: no script, nothing for the content
policy to allow).

The data is the test's ``error_map`` (graders/checks/error_map.py), computed when it was
judged; the pages show the same numbers in a table beside each picture. Hidden tests never
have one, and ``pictures`` reads public tests only all the same.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from app.services.charts import COLOURS, WIDTH_IN, svg_markup
from graders import ErrorMap, PictureKind, Visibility

if TYPE_CHECKING:
    from matplotlib.axes import Axes

WORST_MARK = "#d62728"
GRID_HEIGHT_IN = 2.6
LINE_HEIGHT_IN = 2.4


@dataclass(frozen=True)
class ErrorPicture:
    """One picture of a test: its data (for the table) and its SVG."""

    test: str
    data: ErrorMap
    svg: str

    @property
    def is_grid(self) -> bool:
        return self.data.kind in (PictureKind.MATRIX, PictureKind.SLICE)

    @property
    def sampled(self) -> bool:
        """Whether part of the output is left out (every index drawn counts from 0 up)."""
        return any(ticks != tuple(range(len(ticks))) for ticks in self.data.ticks)


def pictures(tests: Iterable[Mapping[str, Any]]) -> list[ErrorPicture]:
    """The pictures of the stored tests (``TestResult.to_dict``) that have an error map."""
    found = []
    for test in tests:
        if test.get("visibility") != Visibility.PUBLIC.value or not test.get("error_map"):
            continue
        data = ErrorMap.from_dict(test["error_map"])
        found.append(ErrorPicture(test["name"], data, draw(data, f"Error of test {test['name']}")))
    return found


@functools.lru_cache(maxsize=64)
def draw(data: ErrorMap, description: str) -> str:
    """The SVG of ``data``: three heatmaps (expected, got, error) or a line of errors. Kept
    for the latest pictures: drawing takes a second, and a learner reloads their result."""
    from matplotlib.figure import Figure

    if data.kind in (PictureKind.MATRIX, PictureKind.SLICE):
        figure = Figure(figsize=(WIDTH_IN, GRID_HEIGHT_IN), layout="constrained")
        panels = figure.subplots(1, 3)
        rows, columns = data.ticks
        worst = (rows.index(data.worst[-2]), columns.index(data.worst[-1]))
        low = min(min(min(row) for row in data.expected), min(min(row) for row in data.got))
        high = max(max(max(row) for row in data.expected), max(max(row) for row in data.got))
        for axes, values, title, cmap in (
            (panels[0], data.expected, "expected", "viridis"),
            (panels[1], data.got, "got", "viridis"),
            (panels[2], data.error, "|got − expected|", "Reds"),
        ):
            limits = {"vmin": low, "vmax": high} if cmap == "viridis" else {"vmin": 0}
            # A small bitmap in the SVG (the policy allows data: images): vector cells and a
            # vector colour bar took seven times the bytes.
            image = axes.imshow(values, cmap=cmap, aspect="auto", interpolation="nearest", **limits)
            scale = figure.colorbar(image, ax=axes, shrink=0.8)
            scale.ax.tick_params(labelsize="x-small")
            axes.set_title(title, fontsize="small")
            _index_ticks(axes, rows, columns, data.axes)
            axes.plot(
                worst[1],
                worst[0],
                marker="s",
                markersize=9,
                fillstyle="none",
                color=WORST_MARK,
                markeredgewidth=1.5,
            )
        return svg_markup(figure, description)
    figure = Figure(figsize=(WIDTH_IN, LINE_HEIGHT_IN), layout="constrained")
    axes = figure.subplots()
    axes.spines[["top", "right"]].set_visible(False)
    steps, errors = data.ticks[0], data.error[0]
    axes.plot(steps, errors, marker="o" if len(steps) <= 30 else "", markersize=3, color=COLOURS[0])
    axes.plot(
        *_worst_point(data),
        marker="o",
        markersize=7,
        fillstyle="none",
        color=WORST_MARK,
        markeredgewidth=1.5,
    )
    axes.set_xlabel(data.axes[0], fontsize="small")
    axes.set_ylabel("largest |got − expected|", fontsize="small")
    axes.set_ylim(bottom=0)
    axes.grid(axis="y", color="#dddddd", linewidth=0.6)
    return svg_markup(figure, description)


def _worst_point(data: ErrorMap) -> tuple[int, float]:
    """Where the line's largest error is drawn: the run of steps holding the worst element."""
    steps, errors = data.ticks[0], data.error[0]
    highest = max(range(len(errors)), key=errors.__getitem__)
    return steps[highest], errors[highest]


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
