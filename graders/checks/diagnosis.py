"""Naming the learner's mistake: which known wrong solution gives the learner's outputs.

A *candidate* is a hand-written mistake (``mistakes/*.py``) or a mutant of the reference
(:mod:`graders.mutation.mutants`). Their outputs on every case are computed once per exercise
version, on the trusted side, and arranged per case by :class:`CaseTable` so that a learner's
output is compared with all of them in one vectorised step.

:func:`diagnose` names a candidate only when it is unambiguous:

- it explains *every* failing case: where the learner's code returned, the learner's output
  equals the candidate's; where it raised, the candidate raised too (on a public case, an
  exception of the same type and, for numpy's shape errors, of the same failed operation:
  a matrix product, a concatenation, a broadcast of the same disagreeing sizes...; on a
  hidden case the sandbox tells only that it raised). So a
  coincidence on one small case (a single unit, a batch of one) names nothing, and neither
  does a candidate that returns where the learner raised, or raises where it returned;
- it is right wherever the learner is right (a candidate wrong on a case the learner passes
  is not what the learner did);
- the learner's code returned on at least one case: code that raises everywhere tells
  nothing of its mistake (any slip with shapes raises on every case);
- hand-written mistakes come first; among the candidates left, all must share one hint,
  otherwise the outputs cannot tell them apart and no hint is shown.

When no candidate explains every failing case because the learner's code raised where none
does (a second slip: a call that fails on a batch, whose error message the learner reads on
its own), the candidate that explains every case where it returned is named, for those cases
only, if it returned wrong values on at least ``MIN_RETURNED`` of them: the values then show
one of the learner's slips, and the hint says on which cases.

Where a case's call has generator arguments, "equals" also asks that the call left them
where the candidate's call left its own (``CaseTable.generators``): a copy drawn from
instead of the generator gives the reference's values and is told by where it left the
generator alone. A mutant's generators are not followed (it runs in a subprocess that sends
back outputs only): they are taken to be left where the reference leaves them.

"Equals" is within the case's tolerance (a non-finite number equalling any other), with one
exception: values that went through float32 cannot equal anything to within a float64
tolerance, and their rounding differs from one way of computing to another. When most of the
fractional numbers of the learner's output are float32 values (a float64 computation gives
one only by chance, about once in 2**29), it is compared at float32 precision
(``SINGLE_RTOL``, relative and of the expected output's largest magnitude) with the
candidates that are themselves that close to the expected output or whose own output is
float32 values (where a computation that loses digits takes float32 far from it), a float32
mistake: such a candidate explains a failing case where it is that close to the learner's
output, a passed case does not rule it out, and where float32 rounding failed the learner's
case, it explains that case by being right there (its own rounding passed), as long as it is
wrong on most failing cases, as the learner is. A near miss of another kind (a sigmoid
clipped at +-15, off by 3e-7 on saturated entries only) is neither: as a learner's output it
has float64 numbers, and as a candidate it is right on most cases.

In a property case (``@property_case``: judged by its checks alone, since right answers
differ) no value is compared: a candidate explains a failing case where its output has the
structure of the learner's (types and shapes) and fails the same checks, and a case the
learner passes rules out the candidates that fail a check there (``CaseTable.by_checks``).

When no candidate fits, :func:`diagnose_by_check` names what every failing test failed on
right values, if it is one check (the values right, but an input changed in place, a warning
raised, the wrong type returned): the category is shown per test anyway, the diagnosis says
what it means and what to do, in fixed words.
"""

from __future__ import annotations

import numbers
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from graders.checks.compare import Tolerance
from graders.checks.layout import broadcast_mismatch, failed_operation
from graders.results import Diagnosis, DiagnosisSource, Failure
from graders.values import GeneratorState

Generators = Mapping[str, GeneratorState]
"""Where a call left its generator arguments, by name."""

Signature = tuple[Any, ...]
Flat = npt.NDArray[np.float64]

UNTOLD = ""
"""The type of the learner's exception on a hidden case: the sandbox tells only that it
raised (its type could carry a hidden input)."""
MIN_RETURNED = 2
"""The wrong values a candidate must explain when the learner's code also raised where none
does: one case alone (a single unit, a batch of one) can equal a candidate by coincidence."""
SINGLE_RTOL = 1e-5
"""float32 precision with room for rounding accumulated over a computation (float32's own
resolution is 1.2e-7): the relative tolerance of a float32 output, and the absolute one as a
share of the output's largest magnitude."""


@dataclass(frozen=True)
class Candidate:
    """A known wrong solution: ``hint`` is what a learner whose outputs equal its own reads."""

    key: str
    hint: str
    source: DiagnosisSource


def flatten(value: Any) -> tuple[Signature, Flat] | None:
    """The value's structure (tuples, dicts and their keys, arrays and their shapes, numbers,
    booleans, None) and its numbers as one float vector.

    ``None`` for what cannot be compared as numbers (strings, complex, foreign objects).
    """
    if isinstance(value, tuple | list):
        return flatten_items("tuple", value)
    if isinstance(value, dict):
        # In key order: a dict's insertion order is no part of its value.
        keys = sorted(value)
        flat = flatten_items("dict", [value[key] for key in keys])
        return None if flat is None else (("dict", tuple(keys), flat[0]), flat[1])
    if value is None:  # an output that is absent in this case (a gradient without bias)
        return ("none",), np.empty(0)
    if isinstance(value, np.ndarray) and value.dtype.kind in "biuf":
        array = np.asarray(value, dtype=np.float64)
        return ("array", array.shape), array.ravel()
    if isinstance(value, bool | np.bool_):
        return ("bool",), np.array([float(value)])
    # A Python number and a numpy scalar of equal value are the same output here: the type
    # check tells them apart, and a mistake written with numpy types (int(np.int32(...)) or
    # np.int32(...)) still names what the learner did.
    if isinstance(value, numbers.Real):
        return ("number",), np.array([float(value)])
    return None


def flatten_items(kind: str, items: Sequence[Any]) -> tuple[Signature, Flat] | None:
    parts = [flatten(item) for item in items]
    if any(part is None for part in parts):
        return None
    signature = (kind, tuple(part[0] for part in parts if part))
    vectors = [part[1] for part in parts if part]
    return signature, (np.concatenate(vectors) if vectors else np.empty(0))


def exception_kind(type_name: str, message: str) -> str:
    """What a raised case is matched by: the exception's type and, for numpy's complaints
    about shapes, the operation that failed (a matrix product that does not fit and a
    broadcast that does not are different slips, though both raise a ValueError) and, for a
    broadcast, the sizes that disagree (a broadcast of the batch against the units is
    another slip than one of an empty slice against the batch).

    A matrix product's sizes are not compared: they depend on how the weights are written
    (one matrix on ``[h, x]`` or one per part), not on the slip."""
    operation = failed_operation(message)
    mismatch = broadcast_mismatch(message)
    return ":".join(filter(None, (type_name, operation, mismatch)))


def reported_exception_kind(error: Mapping[str, Any] | None) -> str | None:
    """``exception_kind`` of an exception the sandbox reported (its ``type`` and ``message``);
    ``None`` for running out of memory, as ``exception_name``."""
    error = error or {}
    raised = str(error.get("type", ""))
    if raised == "MemoryError":
        return None
    return exception_kind(raised, str(error.get("message", "")))


def exception_name(exc: BaseException) -> str | None:
    """The kind a candidate's exception is matched by; ``None`` for running out of memory,
    which depends on the limits of where the code ran, not on the code's mistake."""
    return None if isinstance(exc, MemoryError) else exception_kind(type(exc).__name__, str(exc))


def single_precision(flat: Flat) -> bool:
    """Whether most of the fractional numbers of ``flat`` are float32 values (integers, and
    so saturated +-1 and exact zeros, are float32 values in any precision and tell nothing)."""
    fractional = flat[np.isfinite(flat) & (flat != np.round(flat))]
    if not fractional.size:
        return False
    with np.errstate(over="ignore"):  # beyond float32's range: no float32 value
        as_single = fractional.astype(np.float32).astype(np.float64)
    return bool(2 * np.count_nonzero(as_single == fractional) > fractional.size)


def close_rows(matrix: Flat, vector: Flat, tolerance: Tolerance) -> npt.NDArray[np.bool_]:
    """Which rows of ``matrix`` equal ``vector`` within the tolerance, a non-finite number
    equalling any other: which of NaN, inf and -inf an overflow or an underflow turns into
    depends on the order of the arithmetic after it (0 / 0 or log(0) - log(0) where another
    order takes log(0) alone), not on the slip that caused it."""
    with np.errstate(invalid="ignore", over="ignore"):
        near = np.abs(matrix - vector) <= tolerance.atol + tolerance.rtol * np.abs(matrix)
    if not near.all():  # non-finite numbers fail the difference; rare, so checked late
        near |= ~np.isfinite(matrix) & ~np.isfinite(vector)
    return np.asarray(near.all(axis=1), dtype=np.bool_)


EXPECTED = ""
"""The key of the expected output's row in a table (no candidate has an empty key)."""


@dataclass(frozen=True)
class Checked:
    """An output as a property case tells it from others: its structure (types and shapes,
    ``None`` where it cannot be compared as numbers) and the names of the checks it fails."""

    structure: Signature | None
    failed: frozenset[str]

    @classmethod
    def of(cls, value: Any, failed: frozenset[str]) -> Checked:
        flat = flatten(value)
        return cls(None if flat is None else flat[0], failed)


@dataclass(frozen=True)
class CaseTable:
    """The candidates' outputs on one case, grouped by structure for one comparison each."""

    tolerance: Tolerance
    expected: tuple[Signature, Flat] | None
    wrong: frozenset[str]
    """Candidates wrong on this case: their output differs from the expected one, or they
    raised."""
    groups: Mapping[Signature, tuple[tuple[str, ...], Flat]]
    """Per output structure, the keys and the stacked outputs of the candidates wrong here;
    the expected output is the row keyed ``EXPECTED`` of its structure's group."""
    raised: Mapping[str, str]
    """The type of the exception each candidate that raised here raised (none for running
    out of memory or time)."""
    single: Tolerance
    """float32 precision on this case: ``SINGLE_RTOL``, absolute as a share of the expected
    output's largest magnitude."""
    near_misses: frozenset[str]
    """The candidates wrong here whose output is within ``single`` of the expected one, or is
    itself a float32 output."""
    checked: Mapping[str, Checked] | None = None
    """In a property case (judged by its checks alone, no output compared): what each
    candidate that returned gave here; ``None`` in a case compared by values."""
    generators: Mapping[str, Generators] = field(default_factory=dict)
    """Where the reference (``EXPECTED``) and each candidate that leaves them elsewhere left
    the call's generator arguments; any other candidate left them where the reference did."""

    def left_alike(self, keys: set[str], generators: Generators) -> set[str]:
        """Those of ``keys`` (``EXPECTED`` or candidates) whose call left the generator
        arguments where ``generators`` says."""
        reference = self.generators.get(EXPECTED, {})
        return {key for key in keys if self.generators.get(key, reference) == generators}

    @classmethod
    def build(
        cls,
        expected: Any,
        outputs: Mapping[str, Any],
        wrong: frozenset[str],
        tolerance: Tolerance,
        raised: Mapping[str, str] | None = None,
        generators: Mapping[str, Generators] | None = None,
    ) -> CaseTable:
        """``outputs`` holds the candidates that returned; ``wrong`` those wrong here;
        ``raised`` the exception type of those that raised; ``generators`` where the
        reference (``EXPECTED``) and the candidates that leave them elsewhere left the call's
        generator arguments."""
        rows: dict[Signature, list[tuple[str, Flat]]] = {}
        flat_expected = flatten(expected)
        if flat_expected is not None:
            rows[flat_expected[0]] = [(EXPECTED, flat_expected[1])]
        for key in sorted(wrong & set(outputs)):
            flat = flatten(outputs[key])
            if flat is not None:
                rows.setdefault(flat[0], []).append((key, flat[1]))
        groups = {
            signature: (tuple(k for k, _ in members), np.stack([v for _, v in members]))
            for signature, members in rows.items()
        }
        single, near_misses = Tolerance(SINGLE_RTOL, 0.0), frozenset[str]()
        if flat_expected is not None:
            finite = np.abs(flat_expected[1][np.isfinite(flat_expected[1])])
            single = Tolerance(SINGLE_RTOL, SINGLE_RTOL * float(finite.max(initial=0.0)))
            keys, matrix = groups[flat_expected[0]]
            # A float32 mistake is one wherever its output is float32's, however far from the
            # expected output a computation that loses digits (a large offset) takes it.
            near = close_rows(matrix, flat_expected[1], single) | np.array(
                [single_precision(row) for row in matrix], dtype=bool
            )
            near_misses = frozenset(keys[i] for i in np.flatnonzero(near)) - {EXPECTED}
        return cls(
            tolerance,
            flat_expected,
            wrong,
            groups,
            {k: v for k, v in (raised or {}).items() if k in wrong},
            single,
            near_misses,
            generators=dict(generators or {}),
        )

    @classmethod
    def by_checks(
        cls,
        checked: Mapping[str, Checked],
        no_output: Collection[str],
        tolerance: Tolerance,
        raised: Mapping[str, str] | None = None,
    ) -> CaseTable:
        """The table of a property case: each candidate that returned with its output's
        structure and the checks it fails; wrong are those that fail one and those with
        ``no_output`` (they raised, of the type in ``raised`` when known). No value is matched
        there, since right answers differ: a candidate fits where its output has the learner's
        structure and fails the same checks (a transposed basis and a list both fail every
        check, but are not one slip)."""
        failing = {key for key, output in checked.items() if output.failed}
        wrong = frozenset(failing | set(no_output))
        return cls(
            tolerance,
            None,
            wrong,
            {},
            {k: v for k, v in (raised or {}).items() if k in wrong},
            Tolerance(SINGLE_RTOL, 0.0),
            frozenset(),
            checked,
        )

    def failing_alike(self, output: Checked, among: set[str] | None = None) -> set[str]:
        """In a property case, the keys whose output is like ``output`` (only those
        ``among`` when given): ``EXPECTED`` when it fails no check, as a right output."""
        if not output.failed:
            return {EXPECTED}
        if output.structure is None:  # text, a foreign object: no slip of a known kind
            return set()
        return {
            key
            for key, theirs in (self.checked or {}).items()
            if theirs == output and (among is None or key in among)
        }

    def matching(
        self, flat: tuple[Signature, Flat] | None, among: set[str] | None = None
    ) -> set[str]:
        """The keys (``EXPECTED`` for the right output, else wrong candidates, only those
        ``among`` when given) whose output here equals ``flat`` within the case's
        tolerance."""
        if flat is None or flat[0] not in self.groups:
            return set()
        keys, matrix = self.groups[flat[0]]
        if among is not None:
            rows = [i for i, key in enumerate(keys) if key == EXPECTED or key in among]
            keys, matrix = tuple(keys[i] for i in rows), matrix[rows]
        return {keys[i] for i in np.flatnonzero(close_rows(matrix, flat[1], self.tolerance))}

    def single_matching(
        self, flat: tuple[Signature, Flat] | None, among: set[str] | None = None
    ) -> set[str]:
        """When ``flat`` is a float32 output: ``EXPECTED`` and the near misses (only those
        ``among`` when given) whose output here equals it within float32 precision."""
        if flat is None or flat[0] not in self.groups or not single_precision(flat[1]):
            return set()
        keys, matrix = self.groups[flat[0]]
        wanted = self.near_misses if among is None else self.near_misses & among
        rows = [i for i, key in enumerate(keys) if key == EXPECTED or key in wanted]
        near = close_rows(matrix[rows], flat[1], self.single)
        return {keys[rows[i]] for i in np.flatnonzero(near)}

    def raising(self, exception: str, among: set[str] | None = None) -> set[str]:
        """The candidates (only those ``among`` when given) that raised here an exception of
        the type ``exception`` (any type for ``UNTOLD``)."""
        return {
            key
            for key, raised in self.raised.items()
            if (exception in (UNTOLD, raised)) and (among is None or key in among)
        }


@dataclass(frozen=True)
class Observation:
    """A case on which the learner's code returned a value or raised, and whether the case
    passed."""

    name: str
    table: CaseTable
    value: Any
    passed: bool
    raised: str | None = None
    """The type of the exception the learner's code raised instead of returning (``UNTOLD``
    on a hidden case); ``None`` when it returned ``value``."""
    failed_checks: frozenset[str] = frozenset()
    """The names of the case's checks the learner's output failed."""
    generators: Generators = field(default_factory=dict)
    """Where the learner's call left its generator arguments."""
    expected_dtypes: tuple[str, ...] = ()
    """The dtypes of the expected output's arrays (``array_dtypes``), for a hint that names
    the dtype asked for."""


def right_values(observation: Observation, flat: tuple[Signature, Flat] | None) -> set[str]:
    """The candidates a case with the right values rules out: those wrong there, but for a
    float32 output, not the float32 near misses it is as close to (whether float32 rounding
    passes a case's tolerance is chance)."""
    table = observation.table
    if not table.near_misses:
        return set(table.wrong)
    return set(table.wrong - table.single_matching(flat))


NOT_UPDATED_IN_PLACE = "NotUpdatedInPlace"
"""The exception a scenario's runner raises where a call replaced an array it was to update
in place (graders/sandbox/scenario.py, which the checks do not import): its kind names the
slip, so a case raising it is told like a wrong value."""


def diagnose(
    candidates: Mapping[str, Candidate], observations: Sequence[Observation]
) -> Diagnosis | None:
    """The candidate that explains every failing observation, when only one hint fits; else
    the one that explains every failing case where the learner's code returned, when it
    returned wrong values on at least ``MIN_RETURNED`` cases and raised where no candidate
    does (a second slip, such as a call that fails on a batch, whose own error message the
    learner reads): the hint then names those cases only."""
    return explain(candidates, observations) or explain(
        candidates,
        [o for o in observations if o.raised is None],
        MIN_RETURNED,
    )


def explain(
    candidates: Mapping[str, Candidate],
    observations: Sequence[Observation],
    min_failing: int = 1,
) -> Diagnosis | None:
    """The candidate that explains every failing observation, when there are at least
    ``min_failing`` of them and only one hint fits."""
    if all(observation.raised is not None for observation in observations) and not any(
        observation.raised == NOT_UPDATED_IN_PLACE for observation in observations
    ):
        # Raising everywhere: no value says which slip it was, unless the runner named it
        # (an array of an updated dict replaced, not changed in place).
        return None
    if sum(1 for observation in observations if not observation.passed) < min_failing:
        return None
    ruled_out: set[str] = set()
    for observation in observations:
        if observation.passed:
            ruled_out |= right_values(observation, flatten(observation.value))
    failing: list[str] = []
    wrong_count: Counter[str] = Counter()  # on how many failing cases each candidate is wrong
    alive: set[str] | None = None  # the candidates that explain every failing case so far
    for observation in observations:
        if observation.passed:
            continue
        table = observation.table
        if observation.raised is not None:
            found = table.raising(observation.raised, alive)
        elif table.checked is not None:
            checked = Checked.of(observation.value, observation.failed_checks)
            found = table.failing_alike(checked, alive)
            if EXPECTED in found:  # right, failing another check (an input changed in place)
                ruled_out |= set(table.wrong)
                continue
        else:
            flat = flatten(observation.value)
            found = table.left_alike(table.matching(flat, alive), observation.generators)
            # A case that fails on another check (batch consistency, inputs changed in place,
            # the dtype) has the right values, and its generators where the reference leaves
            # them: it rules candidates out like a passed one.
            if EXPECTED in found:
                ruled_out |= right_values(observation, flat)
                continue
            single = table.left_alike(table.single_matching(flat, alive), observation.generators)
            if EXPECTED in single:
                # float32 rounding failed this case where a float32 mistake's rounding may pass
                # it: a candidate right here fits it as well as the near misses do.
                single |= set(candidates) - table.wrong
            found |= single - {EXPECTED}
        failing.append(observation.name)
        wrong_count.update(table.wrong)
        alive = (found if alive is None else alive & found) - ruled_out
        if not alive:
            return None  # no candidate left explains this failing case
    if alive is None:
        return None
    # A candidate fits a float32 case by being right only where rounding is chance: like the
    # learner it must be wrong on most failing cases (one equivalent to the reference never is,
    # nor a near miss of another kind, wrong on the few cases that saturate).
    full = [candidates[key] for key in alive - ruled_out if 2 * wrong_count[key] > len(failing)]
    for source in DiagnosisSource:
        found_here = sorted((c for c in full if c.source is source), key=lambda c: c.key)
        if found_here:
            if len({c.hint for c in found_here}) > 1:
                return None  # the outputs cannot tell these mistakes apart
            return Diagnosis(found_here[0].hint, tuple(failing), source, found_here[0].key)
    return None


CHECK_HINTS: Mapping[Failure, str] = {
    Failure.CHANGED_INPUT: (
        "Your values are right, but your function leaves an input other than the statement "
        "asks: it changes an input array in place (an augmented assignment such as `s *= a`, "
        "or a slice assignment, on an argument or on a name bound to one), or it draws from a "
        "generator argument other than the statement says (from a copy of it, or more or "
        "fewer numbers). The caller's arrays must come back as they were, and its generator "
        "where the statement's draws leave it: work on a copy of an array or build new ones, "
        "and draw from the generator itself exactly the numbers asked for."
    ),
    Failure.WARNING: (
        "Your values are right, but a step of your calculation raises a warning (an overflow "
        "in exp, a division by zero, an invalid value), and this exercise counts a warning as "
        "a failure. Rewrite that step so that it stays finite and quiet for every input, for "
        "example so that it never exponentiates a large positive number."
    ),
    Failure.WRONG_TYPE: (
        "Your values are right, but their type is not the one the statement asks for (a float "
        "where an int belongs, a list or a number where an array belongs, or the reverse). "
        "Check what the function must return and convert it."
    ),
    Failure.WRONG_DTYPE: (
        "Your values are right, but the array's dtype is not the one the statement asks for. "
        "Check the dtype of what you return (an int array where floats belong, or the "
        "reverse) and convert it."
    ),
    Failure.SLOW: (
        "Your values are right, but your code takes more CPU time than the exercise's speed "
        "rule allows against the reference. Look for Python loops over the elements of an "
        "array and replace them by whole-array operations (broadcasting, a reduction along an "
        "axis, a matrix product)."
    ),
}
FLOAT_DTYPE_HINT = (
    "Your values are right, but your arrays are {got} where the statement asks for "
    "{expected}. Look for what made them so (an input converted, a constant, or a new array "
    "made with another dtype) and keep the statement's dtype, or convert the result with "
    ".astype()."
)
"""The dtype hint when every failing test has floats of one precision where floats of
another belong: it names both, as the tests' messages do."""


def array_dtypes(value: Any) -> tuple[str, ...]:
    """The dtypes of the arrays of an output, in ``flatten``'s order."""
    if isinstance(value, tuple | list):
        return tuple(dtype for item in value for dtype in array_dtypes(item))
    if isinstance(value, dict):
        return tuple(dtype for key in sorted(value) for dtype in array_dtypes(value[key]))
    return (str(value.dtype),) if isinstance(value, np.ndarray) else ()


def dtype_hint(observations: Sequence[Observation], failing: Collection[str]) -> str:
    """The dtype hint of the failing tests: ``FLOAT_DTYPE_HINT`` with both dtypes where each
    test's arrays are floats of one dtype where another float dtype belongs, else the general
    one."""
    mismatched = {
        (got, expected)
        for observation in observations
        if observation.name in failing
        for got, expected in zip(
            array_dtypes(observation.value), observation.expected_dtypes, strict=False
        )
        if got != expected
    }
    if len(mismatched) == 1:
        ((got, expected),) = mismatched
        if np.dtype(got).kind == np.dtype(expected).kind == "f":
            return FLOAT_DTYPE_HINT.format(got=got, expected=expected)
    return CHECK_HINTS[Failure.WRONG_DTYPE]


# The type checks run before the values are compared: only the output itself says whether
# the values were right.
BEFORE_VALUES = frozenset({Failure.WRONG_TYPE, Failure.WRONG_DTYPE})


def diagnose_by_check(
    failing: Sequence[tuple[str, Failure | None]], observations: Sequence[Observation]
) -> Diagnosis | None:
    """The fixed hint of the one check every failing test failed, with right values.

    ``failing``: each failing test's name and failure category."""
    categories = {failure for _, failure in failing}
    if len(categories) != 1:
        return None
    (category,) = categories
    if category is None or category not in CHECK_HINTS:
        return None
    raised = {o.name for o in observations if o.raised is not None}
    if any(name in raised for name, _ in failing):
        # What a scenario's runner stopped (an array replaced, not updated in place) is told
        # in its category, but no value was judged: "your values are right" would not hold.
        return None
    if category in BEFORE_VALUES:
        returned = {observation.name: observation for observation in observations}
        for name, _ in failing:
            observation = returned.get(name)
            if observation is None or EXPECTED not in observation.table.matching(
                flatten(observation.value)
            ):
                return None
    names = tuple(name for name, _ in failing)
    return Diagnosis(
        dtype_hint(observations, names)
        if category is Failure.WRONG_DTYPE
        else CHECK_HINTS[category],
        names,
        DiagnosisSource.CHECK,
        category.value,
    )
