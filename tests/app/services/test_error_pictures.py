"""app/services/error_pictures.py: each kind of picture as SVG, and only public tests drawn."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import numpy as np
import pytest

from app.services.error_pictures import draw, pictures
from graders import ErrorMap, PictureKind
from graders.checks.error_map import error_map

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
    data = error_map(expected, got)
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
    data = error_map(expected, got)
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
    data = error_map(expected, got, batch_axis=batch_axis, tags=tags)
    assert data is not None
    root = svg_of(data)
    assert not root.findall(f".//{SVG}image")  # lines are vector paths
    words = texts(root)
    assert label in words and "largest |got − expected|" in words


def test_only_public_tests_with_an_error_map_are_drawn() -> None:
    data = error_map(np.zeros((3, 3)), np.eye(3))
    assert data is not None
    stored = data.to_dict()
    tests: list[dict[str, Any]] = [
        {"name": "a", "visibility": "public", "error_map": stored},
        {"name": "b", "visibility": "hidden", "error_map": stored},  # never stored; never drawn
        {"name": "c", "visibility": "public"},
    ]
    drawn = pictures(tests)
    assert [p.test for p in drawn] == ["a"]
    assert drawn[0].data == data and not drawn[0].sampled
