"""The class view's charts, read back from their SVG: the axes' labels, the legend's place,
every series' bars (the SVG's structure and coordinates, not its pixels)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from datetime import date, timedelta

from app.services import charts
from app.services.analytics import (
    AssignmentAnalytics,
    completion_chart,
    exercise_analytics,
    exercise_charts,
)
from tests.app.services import test_analytics

SVG = "{http://www.w3.org/2000/svg}"
DAY = date(2026, 12, 2)
SWAP = "Your gate and the expected one add up to 1 in every entry: which did you return?"
BIAS = "Where does the bias go?"


@dataclass(frozen=True)
class Box:
    """A rectangle in the SVG's coordinates (y grows downwards)."""

    left: float
    top: float
    right: float
    bottom: float

    def overlaps(self, other: Box) -> bool:
        return (
            self.left < other.right
            and other.left < self.right
            and self.top < other.bottom
            and other.top < self.bottom
        )


@dataclass(frozen=True)
class Shape:
    fill: str
    box: Box


@dataclass(frozen=True)
class Chart:
    x_labels: list[str]
    y_labels: list[str]
    plot: Box  # the axes' area
    shapes: list[Shape]  # the filled shapes drawn in the axes, background left out
    legend: list[str]
    legend_swatches: list[Shape]


def box_of(path: ET.Element) -> Box:
    numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", path.get("d", ""))]
    xs, ys = numbers[0::2], numbers[1::2]
    return Box(min(xs), min(ys), max(xs), max(ys))


def fill_of(path: ET.Element) -> str:
    found = re.search(r"fill: ([^;]+)", path.get("style", ""))
    return found.group(1) if found else ""


def filled_shapes(group: ET.Element) -> list[Shape]:
    return [
        Shape(fill_of(path), box_of(path))
        for child in group
        if child.get("id", "").startswith("patch_")
        for path in child.iter(f"{SVG}path")
        if fill_of(path) not in ("", "none")
    ]


def group(root: ET.Element, gid: str) -> ET.Element:
    found = root.find(f".//{SVG}g[@id='{gid}']")
    assert found is not None, f"no group {gid}"
    return found


def texts(element: ET.Element) -> list[str]:
    return [text.text or "" for text in element.iter(f"{SVG}text")]


def read(svg: str) -> Chart:
    root = ET.fromstring(svg)
    axes = group(root, "axes_1")
    background = axes.find(f"{SVG}g[@id]/{SVG}path")  # the axes' area, drawn first
    assert background is not None
    shapes = filled_shapes(axes)  # the background is not filled
    legend = root.find(f".//{SVG}g[@id='legend_1']")
    return Chart(
        x_labels=texts(group(axes, "matplotlib.axis_1")),
        y_labels=texts(group(axes, "matplotlib.axis_2")),
        plot=box_of(background),
        shapes=shapes,
        legend=[] if legend is None else texts(legend),
        legend_swatches=[] if legend is None else filled_shapes(legend),
    )


def test_one_day_gets_a_day_either_side() -> None:
    chart = read(charts.daily_line("complete", [DAY], [2]))
    assert chart.x_labels == ["2026-12-01", "2026-12-02", "2026-12-03"]  # not 2025 to 2029
    assert chart.y_labels == ["0", "1", "2"]
    assert chart.legend == []  # one series: nothing to tell apart


def test_a_month_of_days_keeps_to_its_dates() -> None:
    days = [DAY + timedelta(days=n) for n in range(30)]
    chart = read(charts.daily_line("complete", days, list(range(30))))
    labelled = [date.fromisoformat(label) for label in chart.x_labels]
    assert 3 <= len(labelled) <= 8
    assert labelled == sorted(labelled)
    assert DAY - timedelta(days=1) <= labelled[0] and labelled[-1] <= days[-1] + timedelta(days=1)


def test_mistakes_by_day_stack_under_a_legend_below_the_plot() -> None:
    days = [DAY, DAY + timedelta(days=2)]
    # Equal counts: as lines, one series hid the other.
    chart = read(charts.daily_stacked_bars("mistakes", days, [(SWAP, [3, 1]), (BIAS, [3, 1])]))
    assert chart.x_labels == [(DAY + timedelta(days=n)).isoformat() for n in range(-1, 4)]
    assert chart.y_labels == [str(n) for n in range(7)]  # 3 + 3 stacked
    assert chart.legend == [SWAP[: charts.LABEL_CHARS - 3] + "…", BIAS]
    # The legend is under the plot, clear of it and of the dates.
    for swatch in chart.legend_swatches:
        assert not swatch.box.overlaps(chart.plot)
        assert swatch.box.top > chart.plot.bottom
    # Each series: its own fill (the legend's swatch), a bar a day, no bar over another.
    fills = [swatch.fill for swatch in chart.legend_swatches]
    assert len(set(fills)) == 2
    bars = {fill: [s.box for s in chart.shapes if s.fill == fill] for fill in fills}
    assert [len(boxes) for boxes in bars.values()] == [2, 2]
    swap, bias = bars.values()
    for below, above in zip(swap, bias, strict=True):
        assert not below.overlaps(above)
        assert above.bottom <= below.top + 0.01  # stacked: the second sits on the first
        assert abs((above.bottom - above.top) - (below.bottom - below.top)) < 0.01
    first_day, third_day = swap
    assert abs((first_day.bottom - first_day.top) - 3 * (third_day.bottom - third_day.top)) < 0.01


def test_the_series_differ_in_pattern_too() -> None:
    series = [(f"mistake {n}", [n + 1]) for n in range(charts.MAX_SERIES + 2)]
    chart = read(charts.daily_stacked_bars("mistakes", [DAY], series))
    assert chart.legend == [f"mistake {n}" for n in range(charts.MAX_SERIES)]  # the first five
    fills = [swatch.fill for swatch in chart.legend_swatches]
    assert len(set(fills)) == charts.MAX_SERIES
    assert sum(fill.startswith("url(#") for fill in fills) == charts.MAX_SERIES - 1  # hatched


def completion(*counts: int) -> AssignmentAnalytics:
    return AssignmentAnalytics(
        assignment_id="gates",
        title="Gates",
        learners=3,
        complete=max(counts),
        completion_by_day=tuple((DAY + timedelta(days=n), count) for n, count in enumerate(counts)),
        submissions=4,
        late_submissions=0,
    )


def test_no_completion_chart_while_nobody_completed() -> None:
    assert completion_chart(completion(0, 0, 0)) is None


def test_the_completion_chart_once_someone_completed() -> None:
    svg = completion_chart(completion(0, 1, 2))
    assert svg is not None
    chart = read(svg)
    assert chart.x_labels[0] == "2026-12-01" and chart.x_labels[-1] == "2026-12-05"
    assert chart.y_labels == ["0", "1", "2"]


def test_the_class_view_draws_mistakes_when_there_are_some() -> None:
    reports = test_analytics.REPORTS  # diagnosed on 2026-12-01 and 2026-12-02
    mistakes = read(exercise_charts(exercise_analytics("gate", "Gate", reports))["mistakes"])
    assert mistakes.legend == [test_analytics.SWAP, test_analytics.BIAS]  # most frequent first
    assert mistakes.x_labels == ["2026-11-30", "2026-12-01", "2026-12-02", "2026-12-03"]
    undiagnosed = [report for report in reports if report.diagnosis_hint is None]
    assert set(exercise_charts(exercise_analytics("gate", "Gate", undiagnosed))) == {
        "scores",
        "tests",
    }


def test_no_class_view_charts_before_a_graded_submission() -> None:
    assert exercise_charts(exercise_analytics("gate", "Gate", [])) == {}
