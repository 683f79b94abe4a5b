"""app/services/error_pictures.py: each kind of picture as SVG, only public tests drawn, only
finite values drawn (the others named), and the bound on a picture's bytes."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import numpy as np
import pytest

from app.services import error_pictures
from app.services.error_pictures import MAX_SVG_BYTES, _worst_point, draw, pictures, render
from graders import results
from graders.api import ErrorMap, PictureKind
from graders.checks.compare import Tolerance
from tests.graders.helpers import picture_of

SVG = "{http://www.w3.org/2000/svg}"


def svg_of(data: ErrorMap) -> ET.Element:
    root = ET.fromstring(draw(data, "Error of test t"))
    assert root.tag == f"{SVG}svg"
    assert root.findtext(f"{SVG}title") == "Error of test t"
    return root


def texts(root: ET.Element) -> list[str]:
    return ["".join(node.itertext()).strip() for node in root.iter(f"{SVG}text")]


def test_a_matrix_is_three_heatmaps_with_the_axes_named() -> None:
    expected = np.zeros((5, 8))
    got = expected.copy()
    got[:, -2:] = 1.0
    data = picture_of(expected, got)
    assert data is not None
    root = svg_of(data)
    assert len(root.findall(f".//{SVG}image")) == 6  # three heatmaps, three colour bars
    words = texts(root)
    assert {"expected", "got", "|got − expected|"} <= set(words)
    assert words.count("axis 1") == 3


def test_a_slice_names_its_axes() -> None:
    expected = np.zeros((2, 3, 4, 5))
    got = expected.copy()
    got[1, 2, 3, 4] = 1.0
    data = picture_of(expected, got)
    assert data is not None and data.kind is PictureKind.SLICE
    words = texts(svg_of(data))
    assert words.count("axis 2") == 3 and words.count("axis 3") == 3


@pytest.mark.parametrize(
    ("batch_axis", "tags", "label"),
    [(None, ("sequence",), "step (axis 0)"), (1, (), "batch item (axis 1)")],
)
def test_a_line_per_step_or_batch_item(
    batch_axis: int | None, tags: tuple[str, ...], label: str
) -> None:
    expected = np.zeros((10, 3, 2))
    got = expected + np.linspace(0, 1, 10)[:, None, None]
    data = picture_of(expected, got, batch_axis=batch_axis, tags=tags)
    assert data is not None
    root = svg_of(data)
    assert not root.findall(f".//{SVG}image")  # lines are vector paths
    words = texts(root)
    assert label in words and "largest |got − expected|" in words


def test_only_public_tests_with_an_error_map_are_drawn() -> None:
    data = picture_of(np.zeros((3, 3)), np.eye(3))
    assert data is not None
    stored = data.to_dict()
    tests: list[dict[str, Any]] = [
        {"name": "a", "visibility": "public", "error_map": stored},
        {"name": "b", "visibility": "hidden", "error_map": stored},  # never stored; never drawn
        {"name": "c", "visibility": "public"},
    ]
    drawn = pictures(tests, {0: "<svg/>"})
    assert [(p.test, p.svg) for p in drawn] == [("a", "<svg/>")]
    assert drawn[0].data == data and not drawn[0].sampled
    assert [p.svg for p in pictures(tests, {})] == [None]  # not drawn: the table alone


def every_kind_of_value() -> ErrorMap:
    """The largest grid drawn, holding NaN, both infinities and both largest floats."""
    rng = np.random.default_rng(1)
    expected, got = rng.normal(size=(300, 300)), rng.normal(size=(300, 300)) * 1e307
    expected[::7, ::5] = np.nan  # missed: a NaN the output does not have
    expected[::11, ::3], expected[::13, ::2] = np.inf, -np.inf
    expected[5, 5], got[5, 5] = -1.7e308, 1.7e308
    data = picture_of(expected, got)
    assert data is not None and min(map(len, data.ticks)) >= 15  # of 16 at most
    return data


@pytest.mark.parametrize(
    ("expected", "got", "names", "unit"),
    [
        (np.zeros((4, 5)), np.where(np.eye(4, 5) > 0, 1.7e308, -1.7e308), set(), "×1e308"),
        (np.zeros(10), np.r_[1.7e308, -1.7e308, np.zeros(8)], set(), "(×1e308)"),
        (np.r_[np.nan, np.zeros(9)], np.ones(10), {"NaN"}, ""),
        (np.r_[np.inf, np.zeros(9)], np.ones(10), {"+∞"}, ""),
        (np.r_[-1.7e308, np.nan, np.zeros(8)], np.r_[1.7e308, np.ones(9)], {"NaN", "+∞"}, ""),
    ],
    ids=["largest-grid", "largest-line", "nan-line", "inf-line", "mixed-line"],
)
def test_only_finite_values_are_drawn_and_the_others_named(
    expected: Any, got: Any, names: set[str], unit: str
) -> None:
    data = picture_of(expected, got)
    assert data is not None
    words = texts(svg_of(data))
    assert {w for w in words if w in ("NaN", "+∞", "−∞")} == names
    assert not unit or any(unit in w for w in words)


def test_the_largest_picture_fits_its_bound_and_a_larger_one_is_not_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    data = every_kind_of_value()
    words = texts(svg_of(data))
    assert {"NaN", "+∞", "−∞"} <= set(words)
    test = results.TestResult(
        "t", results.Visibility.PUBLIC, results.Status.FAILED, 0.0, 1.0, error_map=data
    )
    (svg,) = render([test]).values()
    assert len(svg.encode()) <= MAX_SVG_BYTES

    monkeypatch.setattr(error_pictures, "draw", lambda *_: "<svg>" + " " * MAX_SVG_BYTES)
    assert render([test]) == {}  # its table is shown instead


def tick_labels(root: ET.Element, axis: str) -> list[str]:
    return [
        "".join(group.itertext()).strip()
        for group in root.iter(f"{SVG}g")
        if group.get("id", "").startswith(f"{axis}tick_")
    ]


def test_a_batch_of_two_has_whole_ticks_and_marks_the_messages_worst_element() -> None:
    """Issue 39: a batch axis of two items had ticks 0.2 … 0.8."""
    expected = np.full((2, 4, 3), 100.0)
    got = expected + 0.9  # the largest errors, within reach of rtol
    expected[1, 2, 0], got[1, 2, 0] = 0.01, 0.589  # the message's worst: furthest outside
    data = picture_of(expected, got, batch_axis=0, tolerance=Tolerance(rtol=1e-3, atol=1e-6))
    assert data is not None and data.kind is PictureKind.BATCH and data.worst == (1, 2, 0)

    assert tick_labels(svg_of(data), "x") == ["0", "1"]
    step, error = _worst_point(data)
    assert step == 1 and error == pytest.approx(0.579)  # under item 1's largest, 0.9
    assert data.error[0][1] == pytest.approx(0.9)
