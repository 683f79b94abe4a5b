"""graders/checks/error_map.py: the picture data of a wrong output, by shape, and its bounds."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from graders.checks.error_map import (
    MAX_POINTS,
    MAX_SIDE,
    ErrorMap,
    PictureKind,
    error_map,
)


def test_matrix_whose_last_columns_are_off() -> None:
    expected = np.arange(40.0).reshape(5, 8)
    got = expected.copy()
    got[:, -2:] += 1.0
    got[3, 7] += 2.0

    picture = error_map(expected, got)

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


def test_large_matrix_is_sampled_and_keeps_the_worst_row_and_column() -> None:
    expected = np.zeros((100, 50))
    got = expected.copy()
    got[37, 41] = 5.0

    picture = error_map(expected, got)

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

    picture = error_map(expected, got, tags=("gru", "sequence"))

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

    picture = error_map(expected, got, tags=("sequence",))

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

    picture = error_map(expected, got, batch_axis=1, tags=("sequence",))

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

    picture = error_map(expected, got)

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
        (np.array(["a"] * 8), np.array(["b"] * 8)),  # not numbers
        (np.zeros(8, complex), np.ones(8, complex)),  # complex: no heatmap of a real part
    ],
)
def test_nothing_to_draw(expected: object, got: object) -> None:
    assert error_map(expected, got) is None


def test_nan_and_infinities_stay_and_pass_through_json() -> None:
    expected = np.zeros((3, 4))
    expected[0, 0] = np.nan  # missed: the error is NaN
    expected[0, 1] = np.inf  # missed: the error is infinite
    expected[0, 2] = np.nan  # NaN where NaN is expected: right, error 0
    expected[0, 3] = -np.inf  # the expected infinity: right, error 0
    expected[1, 0] = -1.7e308  # the difference overflows
    got = np.ones((3, 4))
    got[0, 2], got[0, 3], got[1, 0] = np.nan, -np.inf, 1.7e308

    picture = error_map(expected, got)

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
    picture = error_map(np.zeros((3, 4, 5)), np.ones((3, 4, 5)) / 3)
    assert picture is not None
    data = picture.to_dict()
    assert data["worst_error"] == 0.333333  # six significant digits stored
    assert ErrorMap.from_dict(data) == picture
