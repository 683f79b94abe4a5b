"""The class view's charts as inline SVG, drawn on the server with matplotlib.

Server-side SVG needs no script on the page (nothing for the content policy to allow, no
bundle to vendor), prints, and scales with the page; instructors read these pages, where no
interaction is needed. Every chart has its numbers in a table beside it and in a CSV, so the
picture is never the only way to read them. (pygal was tried first: it adds an import hook
without ``find_spec`` to ``sys.meta_path``, which breaks imports on current Pythons.)
"""

from __future__ import annotations

import io
import math
import warnings
from collections.abc import Sequence
from datetime import date, timedelta
from typing import TYPE_CHECKING, Literal

import numpy as np

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

COLOURS = ("#2f6f9f", "#c0504d", "#6f8f2f", "#8064a2", "#d9822b")
# A pattern per series besides its colour: series stay apart in grey print and for readers
# who do not tell the colours apart.
HATCHES = ("", "///", "...", "xxx", "\\\\\\")
MAX_SERIES = len(COLOURS)
WIDTH_IN, HEIGHT_IN = 6.4, 2.8
LEGEND_LINE_IN = 0.22  # the height one legend entry adds under the plot
LABEL_CHARS = 60  # a longer series name (a hint) is cut in the legend; the table has it whole
MAX_DATE_TICKS = 8


def new_figure(height_in: float = HEIGHT_IN, grid: Literal["x", "y"] = "y") -> tuple[Figure, Axes]:
    # Imported here, not at the top: matplotlib takes from half a second to seconds to
    # import, and only the instructors' class view draws charts; servers start without it.
    from matplotlib.figure import Figure

    figure = Figure(figsize=(WIDTH_IN, height_in), layout="constrained")
    axes = figure.subplots()
    axes.spines[["top", "right"]].set_visible(False)
    axes.grid(axis=grid, color="#dddddd", linewidth=0.6)
    axes.set_axisbelow(True)
    return figure, axes


def svg_markup(figure: Figure, description: str) -> str:
    from matplotlib import rc_context

    buffer = io.StringIO()
    # Text stays text (the page's font, selectable); no date and a fixed id salt: the same
    # numbers draw the same bytes. The browser draws the text, so a glyph missing from
    # matplotlib's own font (a Japanese test name) only makes its measure approximate.
    with (
        rc_context({"svg.fonttype": "none", "svg.hashsalt": "numjudge"}),
        warnings.catch_warnings(),
    ):
        warnings.filterwarnings("ignore", r"Glyph \d+ .* missing from font", UserWarning)
        figure.savefig(
            buffer, format="svg", transparent=True, metadata={"Date": None, "Title": description}
        )
    text = buffer.getvalue()
    return text[text.index("<svg") :]


def _integer_ticks(axes: Axes, highest: int) -> None:
    """Counts: whole ticks from 0 (an all-zero series would otherwise centre on 0)."""
    from matplotlib.ticker import MaxNLocator

    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_ylim(0, max(1, highest) * 1.05)


def bar_chart(description: str, labels: Sequence[str], values: Sequence[int]) -> str:
    """Counts per category (learners per score band)."""
    figure, axes = new_figure()
    axes.bar(list(labels), list(values), color=COLOURS[0])
    _integer_ticks(axes, max(values, default=0))
    return svg_markup(figure, description)


def share_chart(description: str, labels: Sequence[str], shares: Sequence[float]) -> str:
    """Shares from 0 to 100 % per category, one bar a row (the pass rate of each test)."""
    figure, axes = new_figure(max(1.4, 0.3 * len(labels) + 0.6), grid="x")
    positions = range(len(labels))
    axes.barh(positions, [100 * share for share in shares], color=COLOURS[0])
    axes.set_yticks(positions, list(labels))
    axes.invert_yaxis()  # the first test on top, as in the table
    axes.set_xlim(0, 100)
    axes.xaxis.set_major_formatter("{x:.0f} %")
    return svg_markup(figure, description)


def _date_axis(axes: Axes, days: Sequence[date]) -> None:
    """Days (at least one; plotted at their ordinals) with a day of room either side, where
    matplotlib spread a single day over years, and ISO labels as the tables write them: on
    every day of a short span, at most MAX_DATE_TICKS on a long one."""
    start, end = min(days) - timedelta(days=1), max(days) + timedelta(days=1)
    axes.set_xlim(start.toordinal(), end.toordinal())
    step = math.ceil(((end - start).days + 1) / MAX_DATE_TICKS)
    ticks = [start + timedelta(days=n) for n in range(0, (end - start).days + 1, step)]
    axes.set_xticks([day.toordinal() for day in ticks], [day.isoformat() for day in ticks])
    axes.tick_params(axis="x", labelrotation=30)


def daily_line(description: str, days: Sequence[date], values: Sequence[int]) -> str:
    """One count over days (learners who completed an assignment)."""
    figure, axes = new_figure()
    axes.plot([day.toordinal() for day in days], list(values), marker="o", color=COLOURS[0])
    _integer_ticks(axes, max(values, default=0))
    _date_axis(axes, days)
    return svg_markup(figure, description)


def daily_stacked_bars(
    description: str, days: Sequence[date], series: Sequence[tuple[str, Sequence[int]]]
) -> str:
    """Counts per day split by series, stacked (submissions by the mistake diagnosed): every
    series stays in sight, where lines of equal counts hid each other. The legend goes under
    the plot, whose data it would cover."""
    shown = series[:MAX_SERIES]
    figure, axes = new_figure(HEIGHT_IN + LEGEND_LINE_IN * len(shown))
    x = [day.toordinal() for day in days]
    stacked = np.zeros(len(days), dtype=np.int64)
    for (name, values), colour, hatch in zip(shown, COLOURS, HATCHES, strict=False):
        short = name if len(name) <= LABEL_CHARS else name[: LABEL_CHARS - 3] + "…"
        axes.bar(
            x,
            values,
            width=0.7,
            bottom=stacked,
            color=colour,
            hatch=hatch,
            edgecolor="white",
            linewidth=0.6,
            label=short,
        )
        stacked += np.asarray(values, dtype=np.int64)
    _integer_ticks(axes, int(stacked.max(initial=0)))
    _date_axis(axes, days)
    figure.legend(loc="outside lower center", fontsize="small", frameon=False)
    return svg_markup(figure, description)
