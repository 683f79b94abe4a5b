"""graders/checks/error_map.py: the picture data of a wrong output, by shape, and its bounds."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from graders.checks.compare import Tolerance, compare_array
from graders.checks.error_map import MAX_POINTS, MAX_SIDE, ErrorMap, PictureKind
from tests.graders.helpers import picture_of

ABSOLUTE = Tolerance(rtol=0.0, atol=1e-6)
"""Every element allowed the same error: the worst element is the largest error."""


def test_matrix_whose_last_columns_are_off() -> None:
    expected = np.arange(40.0).reshape(5, 8)
    got = expected.copy()
    got[:, -2:] += 1.0
    got[3, 7] += 2.0

    picture = picture_of(expected, got, tolerance=ABSOLUTE)

    assert picture is not None
    assert picture.kind is PictureKind.MATRIX
    assert picture.shape == (5, 8)
    assert picture.axes == ("axis 0", "axis 1")
    assert picture.ticks == (tuple(range(5)), tuple(range(8)))
    assert picture.worst == (3, 7)
    assert picture.worst_error == 3.0
    assert picture.error[0] == (0.0,) * 6 + (1.0, 1.0)
    assert picture.expected[3][7] == 31.0
    assert picture.got[3][7] == 34.0
    assert picture.fixed == ()


@pytest.mark.parametrize(
    ("shape", "batch_axis", "tags"),
    [((2, 4, 3), 0, ("sequence",)), ((4, 6), None, ()), ((3, 4, 5), None, ()), ((40,), None, ())],
    ids=["batch", "matrix", "slice", "vector"],
)
def test_the_worst_element_error_and_tolerance_are_the_messages(
    shape: tuple[int, ...], batch_axis: int | None, tags: tuple[str, ...]
) -> None:
    """Issue 39: the message named [1, 2, 0] (error 0.579), the picture (0, 2, 2) (0.9291),
    the largest absolute error, less far outside its tolerance than the message's."""
    rng = np.random.default_rng(7)
    expected = rng.uniform(1.0, 1000.0, size=shape)
    got = expected + rng.uniform(0.5, 1.0, size=shape)  # every element wrong
    small = (1,) * len(shape)
    expected[small], got[small] = 0.01, 0.589  # smallest error, furthest outside: rtol-scaled
    tolerance = Tolerance(rtol=1e-3, atol=1e-6)

    result = compare_array(expected, got, tolerance, batch_axis)
    picture = picture_of(expected, got, batch_axis=batch_axis, tags=tags, tolerance=tolerance)

    assert picture is not None
    index = "[" + ", ".join(map(str, small)) + "]"
    assert f"worst at index {index}" in result.message
    assert picture.worst == small and picture.tolerance == tolerance
    assert f"abs error {picture.worst_error:.3g}," in result.message
    assert f"({tolerance.describe()})" in result.message
    assert np.abs(got - expected).max() > picture.worst_error  # not the largest error


def test_large_matrix_is_sampled_and_keeps_the_worst_row_and_column() -> None:
    expected = np.zeros((100, 50))
    got = expected.copy()
    got[37, 41] = 5.0

    picture = picture_of(expected, got)

    assert picture is not None
    rows, columns = picture.ticks
    assert len(rows) <= MAX_SIDE and len(columns) <= MAX_SIDE
    assert 37 in rows and 41 in columns
    assert rows[0] == 0 and rows[-1] == 99
    assert picture.error[rows.index(37)][columns.index(41)] == 5.0
    assert len(picture.expected) == len(rows) and len(picture.got[0]) == len(columns)


def test_sequence_error_per_step_grows_along_time() -> None:
    expected = np.zeros((20, 3, 4))
    got = expected + np.linspace(0.0, 1.9, 20)[:, None, None]

    picture = picture_of(expected, got, tags=("gru", "sequence"))

    assert picture is not None
    assert picture.kind is PictureKind.SEQUENCE
    assert picture.axes == ("step (axis 0)",)
    assert picture.ticks == (tuple(range(20)),)
    assert picture.error[0][0] == 0.0 and picture.error[0][-1] == pytest.approx(1.9)
    assert list(picture.error[0]) == sorted(picture.error[0])
    assert picture.worst[0] == 19 and picture.expected == () and picture.got == ()


def test_long_sequence_keeps_each_runs_largest_error() -> None:
    expected = np.zeros((1000, 2))
    got = expected.copy()
    got[501, 1] = 7.0  # a spike one step wide

    picture = picture_of(expected, got, tags=("sequence",))

    assert picture is not None
    assert len(picture.error[0]) <= MAX_POINTS
    assert max(picture.error[0]) == 7.0
    width = picture.ticks[0][1]
    spike = picture.error[0].index(7.0)
    assert picture.ticks[0][spike] <= 501 < picture.ticks[0][spike] + width


def test_batch_error_per_item_along_the_output_batch_axis() -> None:
    expected = np.zeros((4, 3, 5))  # (T, N, H), the batch on axis 1
    got = expected.copy()
    got[:, 2, :] = 0.5

    picture = picture_of(expected, got, batch_axis=1, tags=("sequence",))

    assert picture is not None
    assert picture.kind is PictureKind.BATCH
    assert picture.axes == ("batch item (axis 1)",)
    assert picture.ticks == ((0, 1, 2),)
    assert picture.error == ((0.0, 0.0, 0.5),)


def test_four_axes_show_the_slice_of_the_worst_element() -> None:
    expected = np.zeros((2, 3, 4, 5))
    got = expected.copy()
    got[1, 2, 3, 4] = 9.0
    got[0, 0, 0, 0] = 1.0

    picture = picture_of(expected, got)

    assert picture is not None
    assert picture.kind is PictureKind.SLICE
    assert picture.fixed == (("axis 0", 1), ("axis 1", 2))
    assert picture.axes == ("axis 2", "axis 3")
    assert picture.worst == (1, 2, 3, 4)
    assert picture.error[3][4] == 9.0
    assert sum(map(sum, picture.error)) == 9.0  # the other slice's error is not in this one


@pytest.mark.parametrize(
    ("expected", "got"),
    [
        (np.zeros(6), np.ones(6)),  # a few elements: the message names them
        (np.zeros((3, 3)), np.ones((3, 4))),  # shapes differ: the shape check says it
        (np.zeros(8), [0.0] * 8),  # not an array
        (np.zeros(8), np.zeros(8)),  # right: no deviation
        (np.zeros(8, complex), np.ones(8, complex)),  # complex: no heatmap of a real part
    ],
)
def test_nothing_to_draw(expected: object, got: object) -> None:
    assert picture_of(expected, got) is None


def test_nan_and_infinities_stay_and_pass_through_json() -> None:
    expected = np.zeros((3, 4))
    expected[0, 0] = np.nan  # missed: the error is NaN
    expected[0, 1] = np.inf  # missed: the error is infinite
    expected[0, 2] = np.nan  # NaN where NaN is expected: right, error 0
    expected[0, 3] = -np.inf  # the expected infinity: right, error 0
    expected[1, 0] = -1.7e308  # the difference overflows
    got = np.ones((3, 4))
    got[0, 2], got[0, 3], got[1, 0] = np.nan, -np.inf, 1.7e308

    picture = picture_of(expected, got)

    assert picture is not None
    assert np.isnan(picture.error[0][0]) and picture.error[0][1:] == (math.inf, 0.0, 0.0)
    assert picture.error[1][0] == math.inf and picture.got[1][0] == 1.7e308
    data = picture.to_dict()
    assert data["error"][0][:2] == ["NaN", "Infinity"] and data["expected"][0][3] == "-Infinity"
    json.dumps(data, allow_nan=False)  # JSON as PostgreSQL and the API's encoder take it
    again = ErrorMap.from_dict(json.loads(json.dumps(data)))
    assert np.isnan(again.error[0][0]) and again.error[0][1:] == picture.error[0][1:]
    assert again.expected[0][3] == -math.inf


def test_round_trip_through_json() -> None:
    picture = picture_of(np.zeros((3, 4, 5)), np.ones((3, 4, 5)) / 3)
    assert picture is not None
    data = picture.to_dict()
    assert data["error"][0][0] == 0.333333  # six significant digits stored
    assert data["worst_error"] == 1 / 3  # the message's own number
    assert ErrorMap.from_dict(data) == picture
