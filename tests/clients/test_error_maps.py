"""The notebook client draws a failed public test's error map inline (numjudge_client._results)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import replace
from typing import Any

import numpy as np
from numjudge_client import Language, Result

from tests.graders.helpers import picture_of


def result_with(picture: dict[str, Any]) -> Result:
    return Result.from_dict(
        {
            "id": "s1",
            "url": "/submissions/s1",
            "exercise": "pairwise-distances",
            "kind": "run",
            "status": "done",
            "verdict": "failed",
            "score": 0.0,
            "max_score": 1.0,
            "tests": [
                {
                    "name": "random points",
                    "visibility": "public",
                    "status": "failed",
                    "points": 0.0,
                    "max_points": 1.0,
                    "failure": "values",
                    "message": "values: ...",
                    "error_map": picture,
                }
            ],
        }
    )


def test_a_matrix_is_a_shaded_table() -> None:
    expected = np.zeros((4, 5))
    got = expected.copy()
    got[:, 3:] = 1.0
    picture = picture_of(expected, got)
    assert picture is not None
    html = result_with(picture.to_dict())._repr_html_()
    block = re.search(
        r'<div class="error-map" data-test="random points" data-kind="matrix".*?</table>', html
    )
    assert block is not None
    assert "worst element [0, 3], error 1<" in block[0]  # as the test's message names it
    rows = re.findall(r"<tr><th>(\d+)</th>(.*?)</tr>", block[0])
    assert [r for r, _ in rows] == ["0", "1", "2", "3"]
    assert all(
        re.findall(r">([^<]+)</td>", cells) == ["0", "0", "0", "1", "1"] for _, cells in rows
    )
    assert "rgba(192,80,77,1.00)" in block[0] and "rgba(192,80,77,0.00)" in block[0]


def test_a_sequence_is_an_inline_line() -> None:
    expected = np.zeros((30, 2))
    picture = picture_of(expected, expected + np.linspace(0, 1, 30)[:, None], tags=("sequence",))
    assert picture is not None
    html = result_with(picture.to_dict())._repr_html_()
    svg = re.search(r"<svg.*?</svg>", html)
    assert svg is not None
    root = ET.fromstring(svg[0])
    assert root.findtext("title") == "largest error per step (axis 0)"
    points = root.find("polyline").get("points", "").split()  # type: ignore[union-attr]
    assert len(points) == 30
    assert points[0] == "0.0,78.0" and points[-1] == "300.0,4.0"


def test_values_that_are_not_numbers_are_written_not_drawn() -> None:
    expected = np.zeros((4, 5))
    expected[0, 0], expected[1, 1] = np.nan, np.inf
    picture = picture_of(expected, np.ones((4, 5)))
    assert picture is not None
    data = picture.to_dict()
    assert data["error"][0][0] == "NaN" and data["error"][1][1] == "Infinity"
    html = result_with(data)._repr_html_()
    cells = re.findall(r"rgba\(192,80,77,([\d.]+)\);padding:0 0.3em\">([^<]+)</td>", html)
    assert ("1.00", "nan") in cells and ("1.00", "inf") in cells and ("1.00", "1") in cells


def test_in_japanese_the_map_names_the_test_and_its_worst_element_in_japanese() -> None:
    expected = np.zeros((4, 5))
    got = expected.copy()
    got[0, 3] = 1.0
    picture = picture_of(expected, got)
    assert picture is not None
    english = result_with(picture.to_dict())
    japanese = replace(
        english,
        language=Language.JA,
        tests=tuple(replace(test, title="ランダムな点") for test in english.tests),
    )
    html = japanese._repr_html_()
    assert "<b>ランダムな点</b>: 最大の誤差は要素 [0, 3]、誤差 1</div>" in html
    assert "worst element" not in html and "不合格" in html
