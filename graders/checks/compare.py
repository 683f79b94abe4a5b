"""Pure comparisons of a learner's output with the expected one.

``compare(expected, got, tolerance)`` checks, in order, the type, the shape, the dtype,
finiteness and the values, and stops at the first difference with a message that says
exactly what differs. Tuples of outputs are compared element by element, dicts key by key;
scalars by type and value. An exercise's declared outputs (graders/checks/outputs.py) name
each output in its message and bring their own tolerance and dtype rule.
"""

from __future__ import annotations

import functools
import itertools
import numbers
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any, SupportsInt

import numpy as np

from graders.checks.deviation import Deviation, deviation
from graders.checks.outputs import DtypeRule, OutputSpec
from graders.checks.tolerance import Tolerance as Tolerance  # where callers have found it
from graders.results import Failure
from graders.values import Foreign

DEFAULT_TOLERANCE = Tolerance()
MAX_PERMUTED_AXES = 4
"""Outputs of up to this many axes are tried in every order of their axes (24 at most)."""


class Check(Enum):
    """The kind of check that found a difference; it names the message's first word."""

    TYPE = "type"
    SHAPE = "shape"
    DTYPE = "dtype"
    FINITENESS = "finiteness"
    VALUES = "values"
    VALUE = "value"
    AUTHOR = "check"
    SINGLE_EXAMPLE = "single example"
    BATCH_CONSISTENCY = "batch consistency"
    INPUTS = "inputs"
    WARNINGS = "warnings"
    CALLS = "calls"

    @property
    def category(self) -> Failure:
        """All a hidden test may say of this check's failure: its message's details are the
        learner's output and the case's numbers."""
        return CATEGORIES[self]


CATEGORIES = {
    Check.TYPE: Failure.WRONG_TYPE,
    Check.SHAPE: Failure.WRONG_SHAPE,
    Check.DTYPE: Failure.WRONG_DTYPE,
    Check.FINITENESS: Failure.NON_FINITE,
    Check.VALUES: Failure.VALUES,
    Check.VALUE: Failure.VALUES,
    Check.AUTHOR: Failure.PROPERTY,
    Check.SINGLE_EXAMPLE: Failure.INCONSISTENT_BATCH,
    Check.BATCH_CONSISTENCY: Failure.INCONSISTENT_BATCH,
    Check.INPUTS: Failure.CHANGED_INPUT,
    Check.WARNINGS: Failure.WARNING,
    # The statement's contract on a function input, like a case's own check of the output.
    Check.CALLS: Failure.PROPERTY,
}


@dataclass(frozen=True)
class CheckResult:
    passed: bool
    check: Check | None = None
    message: str = ""
    failed_checks: tuple[str, ...] = ()
    """With ``Check.AUTHOR``: the names of the case's checks that failed."""
    deviation: Deviation | None = field(default=None, compare=False)
    """With ``Check.VALUES`` on arrays: what the message names, for the error picture."""


PASS = CheckResult(True)


def fail(check: Check, message: str) -> CheckResult:
    return CheckResult(False, check, f"{check.value}: {message}")


def describe_type(value: Any) -> str:
    if isinstance(value, Foreign):
        return value.type_name + (f" ({value.detail})" if value.detail else "")
    if isinstance(value, np.ndarray):
        return f"numpy.ndarray of shape {shape_text(value.shape)}"
    if isinstance(value, np.generic):
        return f"a numpy scalar ({value.dtype})"
    if value is None:
        return "None"
    return type(value).__name__


def shape_text(shape: tuple[int, ...]) -> str:
    return "(" + ", ".join(str(n) for n in shape) + ("," if len(shape) == 1 else "") + ")"


def index_text(index: tuple[SupportsInt, ...]) -> str:
    return "[" + ", ".join(str(int(i)) for i in index) + "]"


def number_text(value: Any) -> str:
    if isinstance(value, complex | np.complexfloating):
        return f"{complex(value):.10g}"
    if isinstance(value, bool | np.bool_):
        return str(bool(value))
    if isinstance(value, numbers.Integral):
        return str(int(value))
    return f"{float(value):.10g}"


def compare(
    expected: Any,
    got: Any,
    tolerance: Tolerance = DEFAULT_TOLERANCE,
    batch_axis: int | tuple[int | None, ...] | None = None,
    outputs: Sequence[OutputSpec] = (),
) -> CheckResult:
    """Compare ``got`` with ``expected``.

    ``batch_axis`` names the output's batch axis (one per element of a tuple output), so a
    shape message can say "missing batch axis". ``outputs`` are the exercise's declared
    outputs: one for the whole output, or one per element of a tuple output.
    """
    if len(outputs) == 1 and not one_element(expected):
        (spec,) = outputs
        result = compare_value(
            expected, got, spec.tolerance(tolerance), batch_axis, spec.dtype, spec.attribute
        )
        return named(spec.name, result)
    if outputs:
        return compare_sequence(expected, got, tolerance, batch_axis, outputs)
    return compare_value(expected, got, tolerance, batch_axis)


def one_element(value: Any) -> bool:
    """Whether ``value`` is a sequence of one output (a scenario's one compared value): its
    element is compared as the one declared output."""
    return isinstance(value, tuple | list) and len(value) == 1


def compare_value(
    expected: Any,
    got: Any,
    tolerance: Tolerance,
    batch_axis: int | tuple[int | None, ...] | None = None,
    dtype: DtypeRule = DtypeRule.EXACT,
    attribute: bool = False,
) -> CheckResult:
    """``attribute``: the value is an object's attribute (``OutputSpec.attribute``)."""
    if isinstance(expected, tuple | list):
        return compare_sequence(expected, got, tolerance, batch_axis)
    if isinstance(expected, dict):
        return compare_mapping(expected, got, tolerance, dtype)
    if isinstance(expected, np.ndarray):
        return compare_array(expected, got, tolerance, batch_axis, dtype, attribute)
    return compare_scalar(expected, got, tolerance)


def named(name: str, result: CheckResult) -> CheckResult:
    """A failure told as one output's (``dw: shape: ...``)."""
    if result.passed:
        return result
    return replace(result, message=f"{name}: {result.message}")


def compare_sequence(
    expected: tuple[Any, ...] | list[Any],
    got: Any,
    tolerance: Tolerance,
    batch_axis: int | tuple[int | None, ...] | None = None,
    outputs: Sequence[OutputSpec] = (),
) -> CheckResult:
    """Element by element, each named by its declared output or by its position."""
    count = len(expected)
    if not isinstance(got, tuple | list):
        return fail(Check.TYPE, f"expected a tuple of {count} outputs, got {describe_type(got)}")
    if len(got) != count:
        return fail(Check.TYPE, f"expected a tuple of {count} outputs, got {len(got)}")
    for position, (want, have) in enumerate(zip(expected, got, strict=True)):
        axis = batch_axis[position] if isinstance(batch_axis, tuple) else batch_axis
        if len(outputs) == count:
            spec = outputs[position]
            result = named(
                spec.name,
                compare_value(
                    want, have, spec.tolerance(tolerance), axis, spec.dtype, spec.attribute
                ),
            )
        elif count == 1:
            result = compare_value(want, have, tolerance, axis)  # no other output to tell from
        else:
            result = named(
                f"output {position + 1} of {count}", compare_value(want, have, tolerance, axis)
            )
        if not result.passed:
            return result
    return PASS


MAX_KEYS_SHOWN = 8
MAX_KEY_CHARS = 40


def keys_text(keys: Sequence[Any]) -> str:
    shown = [repr(key)[:MAX_KEY_CHARS] for key in keys[:MAX_KEYS_SHOWN]]
    more = len(keys) - len(shown)
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def compare_mapping(
    expected: dict[str, Any], got: Any, tolerance: Tolerance, dtype: DtypeRule
) -> CheckResult:
    """The same keys (in any order), then each entry, named by its key."""
    wanted = f"expected a dict with the keys {keys_text(list(expected))}"
    if not isinstance(got, dict):
        return fail(Check.TYPE, f"{wanted}, got {describe_type(got)}")
    missing = [key for key in expected if key not in got]
    extra = [key for key in got if key not in expected]
    if missing or extra:
        parts = [
            f"{label} {keys_text(keys)}"
            for label, keys in (("missing", missing), ("unexpected", extra))
            if keys
        ]
        return fail(Check.TYPE, f"{wanted}; {'; '.join(parts)}")
    for key, want in expected.items():
        result = named(key, compare_value(want, got[key], tolerance, None, dtype))
        if not result.passed:
            return result
    return PASS


def compare_array(
    expected: np.ndarray,
    got: Any,
    tolerance: Tolerance,
    batch_axis: int | tuple[int | None, ...] | None = None,
    dtype: DtypeRule = DtypeRule.EXACT,
    attribute: bool = False,
) -> CheckResult:
    if isinstance(batch_axis, tuple):
        batch_axis = None  # a per-element axis given for a single array: no axis to name
    type_check = functools.partial(check_type, attribute=attribute)
    dtype_check = functools.partial(check_dtype, rule=dtype)
    for check in (type_check, check_shape, dtype_check, check_finite, check_values):
        result = check(expected, got, tolerance, batch_axis)
        if not result.passed:
            return result
    return PASS


def check_type(
    expected: np.ndarray,
    got: Any,
    tolerance: Tolerance,
    batch_axis: int | None = None,
    attribute: bool = False,
) -> CheckResult:
    """``attribute``: ``got`` is an object's attribute, which no ``return`` sets."""
    if isinstance(got, np.ndarray):
        return PASS
    advice = ""
    if isinstance(got, list | tuple):
        advice = "; build it with np.array(...) or return the array itself"
    elif isinstance(got, numbers.Number | np.generic):
        advice = "; a scalar came back where an array was expected"
    elif got is None:
        advice = (
            "; the attribute holds None where an array belongs"
            if attribute
            else "; did the function forget to return?"
        )
    return fail(Check.TYPE, f"expected numpy.ndarray, got {describe_type(got)}{advice}")


def check_shape(
    expected: np.ndarray, got: np.ndarray, tolerance: Tolerance, batch_axis: int | None = None
) -> CheckResult:
    want, have = expected.shape, got.shape
    if want == have:
        return PASS
    base = f"expected {shape_text(want)}, got {shape_text(have)}"
    return fail(
        Check.SHAPE,
        base + shape_diagnosis(want, have, batch_axis) + reordered_values(expected, got, tolerance),
    )


def shape_diagnosis(want: tuple[int, ...], have: tuple[int, ...], batch_axis: int | None) -> str:
    if len(want) >= 2 and have == want[::-1]:
        return ": transposed"
    if len(want) == len(have) and sorted(want) == sorted(have):
        return permuted_axes(want, have)
    if batch_axis is not None and len(want) == len(have) + 1:
        axis = batch_axis % len(want)
        if want[:axis] + want[axis + 1 :] == have:
            return f": missing batch axis (axis {axis}, of size {want[axis]})"
    if len(have) == len(want) + 1:
        for axis in range(len(have)):
            if have[axis] == 1 and have[:axis] + have[axis + 1 :] == want:
                return f": an extra axis of size 1 at position {axis}"
    if len(want) == len(have) + 1:
        for axis in range(len(want)):
            if want[:axis] + want[axis + 1 :] == have:
                return f": axis {axis} (of size {want[axis]}) is missing; was it reduced away?"
    if int(np.prod(want)) == int(np.prod(have)):
        return ": the same number of elements, arranged differently"
    return ""


def permuted_axes(want: tuple[int, ...], have: tuple[int, ...]) -> str:
    """Words for the right axes in another order: a sequence laid out time-first where
    batch-first is expected (or the reverse) shows up here."""
    moved = [axis for axis, (w, h) in enumerate(zip(want, have, strict=True)) if w != h]
    which = (
        f"axes {moved[0]} and {moved[1]} exchanged"
        if len(moved) == 2
        else "the same axes in another order"
    )
    return f": {which}; check which axis the statement puts first (time or batch, say)"


def reordered_values(expected: np.ndarray, got: np.ndarray, tolerance: Tolerance) -> str:
    """Whether the output, its axes put in the expected order, has the right values."""
    if got.ndim != expected.ndim or not 2 <= got.ndim <= MAX_PERMUTED_AXES:
        return ""
    for order in itertools.permutations(range(got.ndim)):
        moved = np.transpose(got, order)
        if (
            moved.shape == expected.shape
            and moved.dtype == expected.dtype
            and check_values(expected, moved, tolerance).passed
        ):
            return "; with the axes in the expected order the values are right"
    return ""


INTEGER_KINDS = frozenset("iu")


def check_dtype(
    expected: np.ndarray,
    got: np.ndarray,
    tolerance: Tolerance,
    batch_axis: int | None = None,
    rule: DtypeRule = DtypeRule.EXACT,
) -> CheckResult:
    if got.dtype == expected.dtype:
        return PASS
    if rule is DtypeRule.KIND:
        if same_kind(expected.dtype, got.dtype):
            return PASS
        return fail(Check.DTYPE, f"{got.dtype}, expected {dtype_kind_text(expected.dtype)}")
    return fail(Check.DTYPE, f"{got.dtype}, expected {expected.dtype}")


def same_kind(expected: np.dtype[Any], got: np.dtype[Any]) -> bool:
    if expected.kind in INTEGER_KINDS:
        return got.kind in INTEGER_KINDS
    return got.kind == expected.kind


def dtype_kind_text(dtype: np.dtype[Any]) -> str:
    if dtype.kind in INTEGER_KINDS:
        return "an integer dtype"
    return {"f": "a float dtype", "c": "a complex dtype", "b": "bool"}.get(dtype.kind, str(dtype))


# The check sees only the output: which operation produced NaN or Inf is the warning's to
# tell (a public test's message adds it), so the advice names the usual ones alike.
NON_FINITE_ADVICE = (
    "look for the operation that produced them (an overflow such as exp() of a "
    "large number, a square root or logarithm of a negative number, 0/0)"
)


def check_finite(
    expected: np.ndarray, got: np.ndarray, tolerance: Tolerance, batch_axis: int | None = None
) -> CheckResult:
    if got.dtype.kind not in "fc":
        return PASS
    wrong = ~np.isfinite(got) & np.isfinite(expected)
    if not wrong.any():
        return PASS
    nan = int((np.isnan(got) & wrong).sum())
    inf = int(wrong.sum()) - nan
    if got.ndim == 0:
        return fail(
            Check.FINITENESS,
            f"{'NaN' if nan else 'Inf'} where a finite value was expected; {NON_FINITE_ADVICE}",
        )
    counts = " and ".join(f"{n} {label}" for n, label in ((nan, "NaN"), (inf, "Inf")) if n)
    first = tuple(int(i) for i in np.argwhere(wrong)[0])
    return fail(
        Check.FINITENESS,
        f"{counts} of {got.size} values where finite values were expected"
        f" (first at index {index_text(first)}); {NON_FINITE_ADVICE}",
    )


def check_values(
    expected: np.ndarray, got: np.ndarray, tolerance: Tolerance, batch_axis: int | None = None
) -> CheckResult:
    if expected.dtype.kind == "b" or got.dtype.kind == "b":
        bad = np.asarray(expected != got)
        if not bad.any():
            return PASS
        worst = tuple(int(i) for i in np.argwhere(bad)[0])
        return fail(
            Check.VALUES,
            f"{int(bad.sum())} of {bad.size} elements differ; first at index"
            f" {index_text(worst)}: expected {number_text(expected[worst])}, got "
            f"{number_text(got[worst])}",
        )
    found = deviation(expected, got, tolerance, batch_axis)
    if found is None:
        return PASS
    worst, want, have = found.worst, found.expected, found.got
    abs_error = found.worst_error
    scale = float(np.abs(want[worst]))
    rel_error = abs_error / scale if scale else float("inf")
    count = int(found.outside.sum())
    share = 100.0 * count / found.outside.size
    where = f" at index {index_text(worst)}" if expected.ndim else ""
    message = fail(
        Check.VALUES,
        f"{count} of {found.outside.size} elements ({share:.1f}%) outside tolerance "
        f"({tolerance.describe()}); worst{where}: expected {number_text(want[worst])}, got "
        f"{number_text(have[worst])} (abs error {abs_error:.3g}, rel error {rel_error:.3g})",
    )
    return replace(message, deviation=found)


def compare_scalar(expected: Any, got: Any, tolerance: Tolerance) -> CheckResult:
    if isinstance(got, np.ndarray) and got.ndim == 0:
        got = got[()]
    if isinstance(expected, bool | np.bool_):
        if isinstance(got, bool | np.bool_) and bool(got) == bool(expected):
            return PASS
        return fail(Check.VALUE, f"expected {expected!r}, got {got!r}")
    if expected is None:
        return PASS if got is None else fail(Check.TYPE, f"expected None, got {describe_type(got)}")
    if isinstance(expected, str):
        # The type first: ``==`` of an array with a string is an array, true or false as a whole
        # only by raising.
        if type(got) is type(expected) and got == expected:
            return PASS
        return fail(Check.VALUE, f"expected {expected!r}, got {got!r}")
    if isinstance(got, bool | np.bool_) or not isinstance(got, numbers.Number):
        return fail(Check.TYPE, f"expected a number, got {describe_type(got)}")
    if isinstance(expected, numbers.Integral) and not isinstance(got, numbers.Integral):
        return fail(Check.TYPE, f"expected an integer, got {type(got).__name__} {number_text(got)}")
    want, have = np.asarray(expected), np.asarray(got)
    finite = check_finite(want, have, tolerance)
    return finite if not finite.passed else check_values(want, have, tolerance)
