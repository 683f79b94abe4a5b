"""The class view's charts as inline SVG, drawn on the server with matplotlib.

Server-side SVG needs no script on the page (nothing for the content policy to allow, no
bundle to vendor), prints, and scales with the page; instructors read these pages, where no
interaction is needed. Every chart has its numbers in a table beside it and in a CSV, so the
picture is never the only way to read them. (pygal was tried first: it adds an import hook
without ``find_spec`` to ``sys.meta_path``, which breaks imports on current Pythons.)
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from datetime import date
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

COLOURS = ("#2f6f9f", "#c0504d", "#6f8f2f", "#8064a2", "#d9822b")
MAX_SERIES = len(COLOURS)
WIDTH_IN, HEIGHT_IN = 6.4, 2.8


def new_figure(height_in: float = HEIGHT_IN) -> tuple[Figure, Axes]:
    # Imported here, not at the top: matplotlib takes from half a second to seconds to
    # import, and only the instructors' class view draws charts; servers start without it.
    from matplotlib.figure import Figure

    figure = Figure(figsize=(WIDTH_IN, height_in), layout="constrained")
    axes = figure.subplots()
    axes.spines[["top", "right"]].set_visible(False)
    axes.grid(axis="y" if height_in == HEIGHT_IN else "x", color="#dddddd", linewidth=0.6)
    axes.set_axisbelow(True)
    return figure, axes


def svg_markup(figure: Figure, description: str) -> str:
    from matplotlib import rc_context

    buffer = io.StringIO()
    # Text stays text (the page's font, selectable); no date and a fixed id salt: the same
    # numbers draw the same bytes.
    with rc_context({"svg.fonttype": "none", "svg.hashsalt": "numjudge"}):
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
    figure, axes = new_figure(max(1.4, 0.3 * len(labels) + 0.6))
    positions = range(len(labels))
    axes.barh(positions, [100 * share for share in shares], color=COLOURS[0])
    axes.set_yticks(positions, list(labels))
    axes.invert_yaxis()  # the first test on top, as in the table
    axes.set_xlim(0, 100)
    axes.xaxis.set_major_formatter("{x:.0f} %")
    return svg_markup(figure, description)


def daily_lines(
    description: str, days: Sequence[date], series: Sequence[tuple[str, Sequence[int]]]
) -> str:
    """One line per series over days (mistakes over time, completion over time)."""
    figure, axes = new_figure()
    for (name, values), colour in zip(series[:MAX_SERIES], COLOURS, strict=False):
        short = name if len(name) <= 60 else name[:57] + "…"
        axes.plot(
            np.array(days, dtype="datetime64[D]"),
            list(values),
            marker="o",
            markersize=3,
            color=colour,
            label=short,
        )
    _integer_ticks(axes, max((max(values, default=0) for _, values in series), default=0))
    axes.tick_params(axis="x", labelrotation=30)
    if len(series) > 1:
        axes.legend(fontsize="small", frameon=False)
    return svg_markup(figure, description)
