"""graders/checks/compare.py: every check, in order, with its exact message."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from graders.checks.compare import (
    CATEGORIES,
    NON_FINITE_ADVICE,
    PASS,
    Check,
    CheckResult,
    Tolerance,
    compare,
    describe_type,
    index_text,
    number_text,
    shape_text,
)
from graders.checks.outputs import DtypeRule, OutputSpec
from graders.results import Failure
from graders.values import Foreign

DEFAULT = "rtol=1e-07, atol=1e-09"


def failed(expected: Any, got: Any, **kwargs: Any) -> CheckResult:
    result = compare(expected, got, **kwargs)
    assert not result.passed, f"{got!r} was accepted for {expected!r}"
    assert result.check is not None
    assert f"{result.check.value}: " in result.message
    return result


# --- helpers ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shape", "text"),
    [
        ((), "()"),
        ((3,), "(3,)"),
        ((2, 3), "(2, 3)"),
        ((0, 4, 1), "(0, 4, 1)"),
    ],
)
def test_shape_text(shape: tuple[int, ...], text: str) -> None:
    assert shape_text(shape) == text


def test_index_text() -> None:
    assert index_text((np.int64(1), 2)) == "[1, 2]"
    assert index_text(()) == "[]"


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (2.0, "2"),
        (0.1 + 0.2, "0.3"),
        (1 / 3, "0.3333333333"),
        (np.float32(0.5), "0.5"),
        (7, "7"),
        (np.int64(-3), "-3"),
        (True, "True"),
        (np.bool_(False), "False"),
        (1 + 2j, "1+2j"),
        (np.complex64(0.5 - 1j), "0.5-1j"),
        (float("nan"), "nan"),
        (float("-inf"), "-inf"),
    ],
)
def test_number_text(value: Any, text: str) -> None:
    assert number_text(value) == text


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (np.zeros((2, 3)), "numpy.ndarray of shape (2, 3)"),
        (np.float32(1), "a numpy scalar (float32)"),
        (None, "None"),
        ([1, 2], "list"),
        (1.5, "float"),
        (Foreign("dict"), "dict"),
        (
            Foreign("numpy.matrix", "a subclass of numpy.ndarray"),
            "numpy.matrix (a subclass of numpy.ndarray)",
        ),
    ],
)
def test_describe_type(value: Any, text: str) -> None:
    assert describe_type(value) == text


def test_tolerance_text() -> None:
    assert Tolerance().describe() == DEFAULT
    assert Tolerance(1e-3, 0.0).describe() == "rtol=0.001, atol=0"
    assert Tolerance(0.05, 1e-12).describe() == "rtol=0.05, atol=1e-12"


# --- passing ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expected", "got"),
    [
        (np.array([1.0, 2.0]), np.array([1.0, 2.0])),
        (np.array([1.0, 2.0]), np.array([1.0 + 1e-8, 2.0 - 1e-8])),  # inside rtol
        (np.array([0.0]), np.array([5e-10])),  # inside atol
        (np.array([np.nan, 1.0]), np.array([np.nan, 1.0])),  # NaN where NaN is expected
        (np.array([np.inf, -np.inf]), np.array([np.inf, -np.inf])),
        (np.array([True, False]), np.array([True, False])),
        (np.array([1 + 1j]), np.array([1 + 1j])),
        (np.array(3.0), np.array(3.0)),
        (np.zeros((0, 3)), np.zeros((0, 3))),
        ((np.zeros(2), np.ones(3)), (np.zeros(2), np.ones(3))),
        ((np.zeros(2), np.ones(3)), [np.zeros(2), np.ones(3)]),
        (2.5, 2.5),
        (2.5, 2.5 * (1 + 1e-8)),
        (2.5, np.float64(2.5)),
        (2.5, np.array(2.5)),
        (3, 3),
        (3, np.int64(3)),
        (3.0, 3),
        (float("nan"), float("nan")),
        ("relu", "relu"),
        (None, None),
        (True, True),
    ],
)
def test_equal_outputs_pass(expected: Any, got: Any) -> None:
    assert compare(expected, got) == PASS


# --- type ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("got", "message"),
    [
        (
            [0.0, 0.0],
            "type: expected numpy.ndarray, got list; build it with np.array(...) or return "
            "the array itself",
        ),
        (
            (0.0, 0.0),
            "type: expected numpy.ndarray, got tuple; build it with np.array(...) or "
            "return the array itself",
        ),
        (
            0.5,
            "type: expected numpy.ndarray, got float; a scalar came back where an array was "
            "expected",
        ),
        (
            np.float64(0.5),
            "type: expected numpy.ndarray, got a numpy scalar (float64); a scalar came "
            "back where an array was expected",
        ),
        (None, "type: expected numpy.ndarray, got None; did the function forget to return?"),
        (Foreign("dict"), "type: expected numpy.ndarray, got dict"),
        (
            Foreign("numpy.ma.MaskedArray", "a subclass of numpy.ndarray"),
            "type: expected numpy.ndarray, got numpy.ma.MaskedArray (a subclass of numpy.ndarray)",
        ),
        ("0.5", "type: expected numpy.ndarray, got str"),
    ],
)
def test_type(got: Any, message: str) -> None:
    result = failed(np.zeros(2), got)
    assert (result.check, result.message) == (Check.TYPE, message)


# --- shape --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("want", "have", "batch_axis", "message"),
    [
        ((4, 3), (3, 4), None, "shape: expected (4, 3), got (3, 4): transposed"),
        ((2, 3, 4), (4, 3, 2), None, "shape: expected (2, 3, 4), got (4, 3, 2): transposed"),
        (
            (4, 3),
            (3,),
            0,
            "shape: expected (4, 3), got (3,): missing batch axis (axis 0, of size 4)",
        ),
        (
            (3, 4),
            (3,),
            1,
            "shape: expected (3, 4), got (3,): missing batch axis (axis 1, of size 4)",
        ),
        (
            (3, 4),
            (3,),
            -1,
            "shape: expected (3, 4), got (3,): missing batch axis (axis 1, of size 4)",
        ),
        (
            (4, 3),
            (4, 1, 3),
            None,
            "shape: expected (4, 3), got (4, 1, 3): an extra axis of size 1 at position 1",
        ),
        (
            (3,),
            (3, 1),
            0,
            "shape: expected (3,), got (3, 1): an extra axis of size 1 at position 1",
        ),
        (
            (4, 3),
            (3,),
            None,
            "shape: expected (4, 3), got (3,): axis 0 (of size 4) is missing; was it reduced away?",
        ),
        (
            (4, 3),
            (4,),
            None,
            "shape: expected (4, 3), got (4,): axis 1 (of size 3) is missing; was it reduced away?",
        ),
        (
            (2, 6),
            (3, 4),
            None,
            "shape: expected (2, 6), got (3, 4): the same number of elements, arranged differently",
        ),
        (
            (12,),
            (3, 4),
            None,
            "shape: expected (12,), got (3, 4): the same number of elements, arranged differently",
        ),
        ((2, 6), (3, 5), None, "shape: expected (2, 6), got (3, 5)"),
        (
            (5, 3, 4),
            (3, 5, 4),
            1,
            "shape: expected (5, 3, 4), got (3, 5, 4): axes 0 and 1 exchanged; "
            "check which axis the statement puts first (time or batch, say)",
        ),
        (
            (2, 3, 4),
            (3, 4, 2),
            None,
            "shape: expected (2, 3, 4), got (3, 4, 2): the same axes in "
            "another order; check which axis the statement puts first (time or batch, say)",
        ),
        (
            (3,),
            (),
            None,
            "shape: expected (3,), got (): axis 0 (of size 3) is missing; was it reduced away?",
        ),
    ],
)
def test_shape(
    want: tuple[int, ...], have: tuple[int, ...], batch_axis: int | None, message: str
) -> None:
    # Ones against zeros: no order of the axes makes the values right.
    result = failed(np.ones(want), np.zeros(have), batch_axis=batch_axis)
    assert (result.check, result.message) == (Check.SHAPE, message)


def test_a_time_first_output_where_batch_first_is_expected_is_told_so() -> None:
    states = np.random.default_rng(0).normal(size=(3, 5, 4))  # (batch, time, units)
    result = failed(states, states.transpose(1, 0, 2), batch_axis=0)
    assert result.message == (
        "shape: expected (3, 5, 4), got (5, 3, 4): axes 0 and 1 exchanged; check which axis "
        "the statement puts first (time or batch, say); with the axes in the expected order "
        "the values are right"
    )
    reshaped = failed(states, states.reshape(5, 3, 4), batch_axis=0)
    assert not reshaped.message.endswith("the values are right")


def test_a_transposed_output_with_the_right_values_is_told_so() -> None:
    expected = np.arange(12.0).reshape(4, 3)
    assert failed(expected, expected.T).message == (
        "shape: expected (4, 3), got (3, 4): transposed; with the axes in the expected order "
        "the values are right"
    )


def test_shape_is_checked_before_dtype() -> None:
    result = failed(np.zeros((2, 3)), np.zeros((3, 2), dtype=np.float32))
    assert result.message == "shape: expected (2, 3), got (3, 2): transposed"


# --- dtype --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("want", "have", "message"),
    [
        (np.float64, np.float32, "dtype: float32, expected float64"),
        (np.float64, np.int64, "dtype: int64, expected float64"),
        (np.int64, np.int32, "dtype: int32, expected int64"),
        (np.bool_, np.float64, "dtype: float64, expected bool"),
        (np.complex128, np.float64, "dtype: float64, expected complex128"),
    ],
)
def test_dtype(want: type, have: type, message: str) -> None:
    result = failed(np.ones(3, dtype=want), np.ones(3, dtype=have))
    assert (result.check, result.message) == (Check.DTYPE, message)


def test_dtype_is_checked_before_values() -> None:
    result = failed(np.ones(3), np.full(3, 7, dtype=np.float32))
    assert result.message == "dtype: float32, expected float64"


# --- finiteness ---------------------------------------------------------------------------

OVERFLOW = (
    "look for the operation that produced them (an overflow such as exp() of a large "
    "number, a square root or logarithm of a negative number, 0/0)"
)


def test_finiteness_counts_nan_and_inf_and_names_the_first_index() -> None:
    expected = np.ones((2, 3))
    got = np.array([[1.0, 1.0, np.nan], [np.inf, np.nan, -np.inf]])
    result = failed(expected, got)
    assert result.check is Check.FINITENESS
    assert result.message == (
        "finiteness: 2 NaN and 2 Inf of 6 values where finite values were "
        f"expected (first at index [0, 2]); {OVERFLOW}"
    )


def test_finiteness_only_nan() -> None:
    result = failed(np.ones(4), np.array([1.0, 1.0, 1.0, np.nan]))
    assert result.message == (
        "finiteness: 1 NaN of 4 values where finite values were expected "
        f"(first at index [3]); {OVERFLOW}"
    )


def test_finiteness_only_inf() -> None:
    result = failed(np.ones(2), np.array([np.inf, -np.inf]))
    assert result.message == (
        "finiteness: 2 Inf of 2 values where finite values were expected "
        f"(first at index [0]); {OVERFLOW}"
    )


def test_finiteness_allows_nan_where_nan_is_expected() -> None:
    expected = np.array([np.nan, 1.0, 2.0])
    assert compare(expected, np.array([np.nan, 1.0, 2.0])) == PASS
    result = failed(expected, np.array([np.nan, np.nan, 2.0]))
    assert result.message == (
        "finiteness: 1 NaN of 3 values where finite values were expected "
        f"(first at index [1]); {OVERFLOW}"
    )


def test_finiteness_is_checked_before_values() -> None:
    result = failed(np.array([1.0, 2.0]), np.array([5.0, np.nan]))
    assert result.check is Check.FINITENESS


def test_complex_finiteness() -> None:
    result = failed(np.array([1 + 1j, 2j]), np.array([complex(np.inf, 0), 2j]))
    assert result.message == (
        "finiteness: 1 Inf of 2 values where finite values were expected "
        f"(first at index [0]); {OVERFLOW}"
    )


# --- values -------------------------------------------------------------------------------


def test_values_message_names_worst_element_errors_share_and_tolerance() -> None:
    result = failed(np.array([1.0, 2.0, 3.0]), np.array([1.0, 2.5, 3.0]))
    assert result.check is Check.VALUES
    assert result.message == (
        f"values: 1 of 3 elements (33.3%) outside tolerance ({DEFAULT}); "
        "worst at index [1]: expected 2, got 2.5 (abs error 0.5, "
        "rel error 0.25)"
    )


def test_values_worst_is_relative_to_the_tolerance_not_the_largest_absolute_error() -> None:
    # 0.1 off a value of 1000 is 1000x the allowance; 0.001 off 0.001 is ~900000x.
    expected = np.array([[1000.0, 0.001], [5.0, 5.0]])
    got = np.array([[1000.1, 0.002], [5.0, 5.0]])
    result = failed(expected, got)
    assert result.message == (
        f"values: 2 of 4 elements (50.0%) outside tolerance ({DEFAULT}); "
        "worst at index [0, 1]: expected 0.001, got 0.002 (abs error "
        "0.001, rel error 1)"
    )


def test_values_with_the_case_tolerance() -> None:
    expected = np.array([1.0, 2.0, 4.0])
    got = np.array([1.0005, 2.0, 4.1])
    assert compare(expected, got, Tolerance(rtol=0.05, atol=0.0)) == PASS
    result = failed(expected, got, tolerance=Tolerance(rtol=1e-3, atol=0.0))
    assert result.message == (
        "values: 1 of 3 elements (33.3%) outside tolerance (rtol=0.001, "
        "atol=0); worst at index [2]: expected 4, got 4.1 (abs error 0.1, "
        "rel error 0.025)"
    )


def test_values_relative_error_of_an_expected_zero_is_inf() -> None:
    result = failed(np.array([0.0, 1.0]), np.array([0.5, 1.0]))
    assert result.message == (
        f"values: 1 of 2 elements (50.0%) outside tolerance ({DEFAULT}); "
        "worst at index [0]: expected 0, got 0.5 (abs error 0.5, "
        "rel error inf)"
    )


def test_values_expected_nan_got_number() -> None:
    result = failed(np.array([np.nan, 1.0]), np.array([0.0, 1.0]))
    assert result.message == (
        f"values: 1 of 2 elements (50.0%) outside tolerance ({DEFAULT}); "
        "worst at index [0]: expected nan, got 0 (abs error nan, "
        "rel error nan)"
    )


@pytest.mark.parametrize("got", [5.0, -np.inf])
def test_values_expected_inf_is_not_matched_by_a_finite_number_or_the_other_inf(got: float) -> None:
    # |got - inf| = inf and the allowance atol + rtol * inf = inf: "inf <= inf" must not pass.
    result = compare(np.array([np.inf, 1.0]), np.array([got, 1.0]))
    assert not result.passed
    assert result.check is Check.VALUES
    assert f"worst at index [0]: expected inf, got {number_text(got)}" in result.message


def test_values_integer_arrays() -> None:
    result = failed(np.array([1, 2, 3]), np.array([1, 2, 4]))
    assert result.message == (
        f"values: 1 of 3 elements (33.3%) outside tolerance ({DEFAULT}); "
        "worst at index [2]: expected 3, got 4 (abs error 1, "
        "rel error 0.333)"
    )


def test_values_zero_dimensional_array_has_no_index() -> None:
    result = failed(np.array(1.0), np.array(2.0))
    assert result.message == (
        f"values: 1 of 1 elements (100.0%) outside tolerance ({DEFAULT}); "
        "worst: expected 1, got 2 (abs error 1, rel error 1)"
    )


def test_values_complex() -> None:
    result = failed(np.array([1 + 1j, 2 + 0j]), np.array([1 + 2j, 2 + 0j]))
    assert result.message == (
        f"values: 1 of 2 elements (50.0%) outside tolerance ({DEFAULT}); "
        "worst at index [0]: expected 1+1j, got 1+2j (abs error 1, "
        "rel error 0.707)"
    )


def test_values_share_is_rounded_to_one_decimal() -> None:
    expected = np.zeros(7)
    got = np.array([0, 0, 0, 0, 0, 1.0, 2.0])
    assert failed(expected, got).message == (
        f"values: 2 of 7 elements (28.6%) outside tolerance ({DEFAULT}); worst at index [6]: "
        "expected 0, got 2 (abs error 2, rel error inf)"
    )


# --- bool arrays --------------------------------------------------------------------------


def test_bool_arrays_count_differences_and_name_the_first() -> None:
    expected = np.array([[True, False], [True, True]])
    got = np.array([[True, True], [False, True]])
    result = failed(expected, got)
    assert (result.check, result.message) == (
        Check.VALUES,
        "values: 2 of 4 elements differ; first at index [0, 1]: expected False, got True",
    )


def test_bool_expected_float_returned_is_a_dtype_failure() -> None:
    result = failed(np.array([True, False]), np.array([1.0, 0.0]))
    assert result.message == "dtype: float64, expected bool"


# --- tuples of arrays ---------------------------------------------------------------------


def test_tuple_count() -> None:
    result = failed((np.zeros(2), np.zeros(2)), (np.zeros(2), np.zeros(2), np.zeros(2)))
    assert (result.check, result.message) == (
        Check.TYPE,
        "type: expected a tuple of 2 outputs, got 3",
    )


def test_tuple_expected_array_returned() -> None:
    result = failed((np.zeros(2), np.zeros(3)), np.zeros(2))
    assert result.message == (
        "type: expected a tuple of 2 outputs, got numpy.ndarray of shape (2,)"
    )


def test_tuple_expected_none_returned() -> None:
    assert failed((np.zeros(2),), None).message == "type: expected a tuple of 1 outputs, got None"


def test_tuple_element_failures_are_prefixed_with_their_position() -> None:
    expected = (np.zeros(2), np.ones((2, 3)))
    shape = failed(expected, (np.zeros(2), np.ones((3, 2))))
    assert (shape.check, shape.message) == (
        Check.SHAPE,
        "output 2 of 2: shape: expected (2, 3), got (3, 2): transposed; with the "
        "axes in the expected order the values are right",
    )
    values = failed(expected, (np.array([0.0, 0.5]), np.ones((2, 3))))
    assert (values.check, values.message) == (
        Check.VALUES,
        "output 1 of 2: values: 1 of 2 elements (50.0%) outside tolerance "
        f"({DEFAULT}); worst at index [1]: expected 0, got 0.5 (abs error 0.5, "
        "rel error inf)",
    )
    kind = failed(expected, (np.zeros(2), [[1.0] * 3] * 2))
    assert kind.message == (
        "output 2 of 2: type: expected numpy.ndarray, got list; build it "
        "with np.array(...) or return the array itself"
    )


def test_tuple_batch_axis_reaches_each_element() -> None:
    result = failed((np.zeros((4, 3)),), (np.zeros(3),), batch_axis=0)
    # One output: no "output 1 of 1" to tell it from others.
    assert result.message == (
        "shape: expected (4, 3), got (3,): missing batch axis (axis 0, of size 4)"
    )


def test_a_scenarios_one_value_is_named_by_its_step_alone() -> None:
    # A scenario compares the list of its steps' values; with one value, no "output 1 of 1".
    spec = OutputSpec("step 2, opt.m", dtype=DtypeRule.KIND)
    result = failed([np.zeros(3)], [np.zeros(2)], outputs=(spec,))
    assert result.message == "step 2, opt.m: shape: expected (3,), got (2,)"
    # Its own rules still hold: an integer dtype for an integer one.
    assert compare([np.zeros(3, np.int64)], [np.zeros(3, np.int32)], outputs=(spec,)) == PASS


def test_an_attribute_holding_none_is_told_so() -> None:
    state = OutputSpec("step 2, layer.cache", attribute=True)
    result = failed([np.zeros(3)], [None], outputs=(state,))
    assert result.message == (
        "step 2, layer.cache: type: expected numpy.ndarray, got None; the attribute holds None "
        "where an array belongs"
    )
    returned = OutputSpec("step 2, layer.forward: out")
    assert failed([np.zeros(3)], [None], outputs=(returned,)).message.endswith(
        "did the function forget to return?"
    )


# --- scalars ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("got", "message"),
    [
        (3.0, "type: expected an integer, got float 3"),
        (2.5, "type: expected an integer, got float 2.5"),
        (np.float64(4.0), "type: expected an integer, got float64 4"),
    ],
)
def test_scalar_integer_expected_float_returned(got: Any, message: str) -> None:
    result = failed(3, got)
    assert (result.check, result.message) == (Check.TYPE, message)


@pytest.mark.parametrize(
    ("got", "message"),
    [
        ("2.5", "type: expected a number, got str"),
        (True, "type: expected a number, got bool"),
        (None, "type: expected a number, got None"),
        (np.zeros(2), "type: expected a number, got numpy.ndarray of shape (2,)"),
        (Foreign("dict"), "type: expected a number, got dict"),
    ],
)
def test_scalar_number_expected_other_type_returned(got: Any, message: str) -> None:
    result = failed(2.5, got)
    assert (result.check, result.message) == (Check.TYPE, message)


def test_scalar_float_tolerance() -> None:
    assert compare(1.0, 1.0 + 5e-8) == PASS
    result = failed(1.0, 1.001)
    assert result.message == (
        f"values: 1 of 1 elements (100.0%) outside tolerance ({DEFAULT}); "
        "worst: expected 1, got 1.001 (abs error 0.001, rel error 0.001)"
    )
    assert compare(1.0, 1.001, Tolerance(rtol=1e-2)) == PASS


def test_scalar_integer_values() -> None:
    result = failed(61, 60)
    assert result.message == (
        f"values: 1 of 1 elements (100.0%) outside tolerance ({DEFAULT}); "
        "worst: expected 61, got 60 (abs error 1, rel error 0.0164)"
    )


def test_scalar_expected_inf_is_not_matched_by_a_number() -> None:
    result = compare(float("inf"), 5.0)
    assert not result.passed
    assert result.check is Check.VALUES


# --- strings, None and bools --------------------------------------------------------------


@pytest.mark.parametrize(
    ("expected", "got", "message"),
    [
        ("relu", "tanh", "value: expected 'relu', got 'tanh'"),
        ("1", 1, "value: expected '1', got 1"),
        (True, False, "value: expected True, got False"),
        (True, 1, "value: expected True, got 1"),
    ],
)
def test_exact_values(expected: Any, got: Any, message: str) -> None:
    result = failed(expected, got)
    assert (result.check, result.message) == (Check.VALUE, message)


@pytest.mark.parametrize(
    ("got", "message"),
    [
        (0, "type: expected None, got int"),
        (Foreign("dict"), "type: expected None, got dict"),
        (np.zeros((2, 3)), "type: expected None, got numpy.ndarray of shape (2, 3)"),
        (np.zeros(1), "type: expected None, got numpy.ndarray of shape (1,)"),
    ],
)
def test_anything_but_none_where_none_is_expected_is_of_the_wrong_type(
    got: Any, message: str
) -> None:
    # An array used to reach ``got == None``: an array, true or false only by raising.
    result = failed(None, got)
    assert (result.check, result.message) == (Check.TYPE, message)
    assert Check.TYPE.category is Failure.WRONG_TYPE


def test_an_array_where_a_string_is_expected_is_judged() -> None:
    result = failed("relu", np.array(["relu", "tanh"]))
    assert result.check is Check.VALUE


def test_a_numpy_bool_is_accepted_for_a_python_bool() -> None:
    # np.all(...) returns numpy.bool_; np.int64 is accepted for an int, so bool must be too.
    assert compare(True, np.True_) == PASS
    assert compare(np.False_, False) == PASS


def test_every_check_kind_has_the_category_a_hidden_test_shows() -> None:
    assert set(CATEGORIES) == set(Check)
    shape = failed(np.zeros(2), np.zeros(3)).check
    dtype = failed(np.zeros(2), np.zeros(2, np.float32)).check
    assert shape is not None and shape.category.value == "wrong_shape"
    assert dtype is not None and dtype.category.value == "wrong_dtype"


# --- NaN numbers, dicts and declared outputs ----------------------------------------------


@pytest.mark.parametrize(("got", "word"), [(float("nan"), "NaN"), (np.float64("-inf"), "Inf")])
def test_a_non_finite_number_is_a_finiteness_failure(got: Any, word: str) -> None:
    result = failed(2.5, got)
    assert (result.check, result.message) == (
        Check.FINITENESS,
        f"finiteness: {word} where a finite value was expected; {NON_FINITE_ADVICE}",
    )


def test_an_expected_nan_number_is_still_matched_by_nan() -> None:
    assert compare(float("nan"), float("nan")) == PASS


def test_a_dict_is_compared_key_by_key_in_any_order() -> None:
    expected = {"w": np.ones((2, 3)), "b": np.zeros(3)}
    assert compare(expected, {"b": np.zeros(3), "w": np.ones((2, 3))}) == PASS
    result = failed(expected, {"w": np.ones((3, 2)), "b": np.zeros(3)})
    assert (result.check, result.message) == (
        Check.SHAPE,
        "w: shape: expected (2, 3), got (3, 2): transposed; with the axes in the expected "
        "order the values are right",
    )


@pytest.mark.parametrize(
    ("got", "message"),
    [
        (
            np.ones(3),
            "type: expected a dict with the keys 'w', 'b', got numpy.ndarray of shape (3,)",
        ),
        (
            Foreign("submission.Params", "a subclass of dict"),
            "type: expected a dict with the keys 'w', 'b', got submission.Params "
            "(a subclass of dict)",
        ),
        ({"w": 1.0}, "type: expected a dict with the keys 'w', 'b'; missing 'b'"),
        (
            {"w": 1.0, "b": 2.0, **{f"k{i}": 0 for i in range(10)}},
            "type: expected a dict with the keys 'w', 'b'; unexpected 'k0', 'k1', 'k2', "
            "'k3', 'k4', 'k5', 'k6', 'k7' and 2 more",
        ),
        (
            {"w": 1.0, "x" * 100: 2.0},
            f"type: expected a dict with the keys 'w', 'b'; missing 'b'; unexpected '{'x' * 39}",
        ),
    ],
    ids=["array", "foreign", "missing", "many-extra", "long-key"],
)
def test_a_dict_with_other_keys_says_which(got: Any, message: str) -> None:
    result = failed({"w": 1.0, "b": 2.0}, got)
    assert (result.check, result.message) == (Check.TYPE, message)


def test_declared_outputs_name_each_element_of_a_tuple() -> None:
    outputs = (OutputSpec("dx"), OutputSpec("dw"), OutputSpec("db"))
    expected = (np.zeros(2), np.zeros((4, 3)), np.zeros(3))
    result = failed(expected, (np.zeros(2), np.zeros((3, 4)), np.zeros(3)), outputs=outputs)
    transposed = "shape: expected (4, 3), got (3, 4): transposed; with the axes in the expected "
    assert result.message == f"dw: {transposed}order the values are right"
    unnamed = failed(expected, (np.zeros(2), np.zeros((3, 4)), np.zeros(3)))
    assert unnamed.message == f"output 2 of 3: {transposed}order the values are right"


def test_one_declared_output_names_the_whole_output() -> None:
    result = failed(np.zeros(2), np.ones(2), outputs=(OutputSpec("probs"),))
    assert result.message.startswith("probs: values: 2 of 2 elements (100.0%) outside")


def test_a_declared_tolerance_is_the_outputs_own() -> None:
    outputs = (OutputSpec("loss", rtol=1e-3), OutputSpec("grad", rtol=0.0, atol=0.0))
    assert compare((1.0, np.ones(2)), (1.0005, np.ones(2)), outputs=outputs) == PASS
    result = failed((1.0, np.ones(2)), (1.0, np.ones(2) + 1e-12), outputs=outputs)
    assert result.message.startswith(
        "grad: values: 2 of 2 elements (100.0%) outside tolerance (rtol=0, atol=0)"
    )


def test_a_kind_dtype_rule_takes_any_width_of_the_kind() -> None:
    kind = (OutputSpec("indices", dtype=DtypeRule.KIND),)
    indices = np.array([3, 1, 2])
    assert compare(indices, indices.astype(np.int32), outputs=kind) == PASS
    assert compare(indices, indices.astype(np.uint8), outputs=kind) == PASS
    result = failed(indices, indices.astype(np.float64), outputs=kind)
    assert result.message == "indices: dtype: float64, expected an integer dtype"
    exact = failed(indices, indices.astype(np.int32), outputs=(OutputSpec("indices"),))
    assert exact.message == "indices: dtype: int32, expected int64"
    floats = failed(np.zeros(2), np.zeros(2, bool), outputs=kind)
    assert floats.message == "indices: dtype: bool, expected a float dtype"
