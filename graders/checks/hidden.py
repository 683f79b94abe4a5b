"""What a hidden test may tell the learner: its name, its points, passed or not, and one
``Failure`` from a fixed vocabulary.

A hidden test's message is a function of its ``Failure`` alone, and for ``Failure.PROPERTY`` of
the names of the case's checks that failed (the author's trusted words, fixed per version), so
nothing the learner's code wrote and no number from a hidden input or from the learner's output
on it can reach the report's tests: a check's own message never does. (The report keeps that
full message apart, in ``GradeReport.hidden_messages``, which the service stores for
instructors and shows the learner only after an instructor-enabled reveal: docs/security.md.)
Besides the tests, a report may carry one diagnosis (graders/checks/diagnosis.py): one of the
exercise's known mistakes' texts, trusted and fixed per version, with the failing tests it
explains (which the tests' failures already tell). Per hidden case and submission the learner
learns at most ``leak_bound_bits`` (the log2 of the number of distinct things the test and the
diagnosis can show together; docs/security.md).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence

from graders.checks.compare import NON_FINITE_ADVICE
from graders.checks.diagnosis import CHECK_HINTS
from graders.checks.properties import names_text
from graders.results import Failure, InputKind, Status, TestResult, Visibility

NOT_SHOWN = " (details are not shown for hidden tests)"
CHANGED_INPUT_WAYS = {
    InputKind.UPDATED: (
        "an array it was to update in place replaced by a new one (change the array itself: "
        "-=, += or a slice assignment)"
    ),
    InputKind.GENERATOR: (
        "a generator not drawn from exactly as the statement says (not from a copy, no more, "
        "no fewer)"
    ),
}


def changed_input_message(input_kinds: Collection[InputKind] = ()) -> str:
    """The fixed ``changed_input`` text of a case whose inputs hold ``input_kinds``: what any
    case's call can do (change an array in place), then what only such a case's can."""
    ways = [
        "an array changed in place (work on a copy, e.g. x = x.copy(), or build new arrays)",
        *(text for kind, text in CHANGED_INPUT_WAYS.items() if kind in input_kinds),
    ]
    return "inputs: the call left an input other than the statement asks: " + " or ".join(ways)


HIDDEN_MESSAGES = {
    Failure.WRONG_TYPE: "type: the output is not of the expected type",
    Failure.WRONG_SHAPE: "shape: the output does not have the expected shape",
    Failure.WRONG_DTYPE: "dtype: the output does not have the expected dtype",
    Failure.NON_FINITE: (
        "finiteness: NaN or Inf where finite values were expected; " + NON_FINITE_ADVICE
    ),
    Failure.VALUES: "values: the output differs from the expected one beyond the tolerance",
    Failure.PROPERTY: "property: the output fails a check of this test",
    Failure.EXCEPTION: "raised an exception",
    # A case's own text names what its inputs hold (changed_input_message); this, for most.
    Failure.CHANGED_INPUT: changed_input_message(),
    # One text for both ways the check fails (the single examples' results differ, or one
    # raised): telling them apart would be one more outcome of every hidden batched test.
    Failure.INCONSISTENT_BATCH: (
        "batch consistency: the batched result differs from the results of single examples, "
        "or a single example raised"
    ),
    Failure.WARNING: (
        "warnings: the call raised a warning (e.g. an overflow), which this "
        "exercise counts as a failure"
    ),
    Failure.TIME_LIMIT: "time limit exceeded",
    Failure.MEMORY_LIMIT: "ran out of memory (MemoryError)",
    Failure.CRASHED: "the process ended before all tests ran",
    Failure.FORBIDDEN: "rules: the code uses what this exercise forbids",
    Failure.SLOW: "speed: right values, but slower than this test's speed rule allows",
}
ERROR_FAILURES = frozenset(
    {Failure.EXCEPTION, Failure.TIME_LIMIT, Failure.MEMORY_LIMIT, Failure.CRASHED}
)


def hidden_message(
    failure: Failure, failed_checks: Sequence[str] = (), input_kinds: Collection[InputKind] = ()
) -> str:
    """The fixed message of ``failure``; of ``Failure.PROPERTY``, naming the ``failed_checks``
    (their names only); of ``Failure.CHANGED_INPUT``, the ways of the case's ``input_kinds``
    (fixed per case: it tells nothing of the learner's call)."""
    if failure is Failure.PROPERTY and failed_checks:
        return f"property: the output fails {names_text(failed_checks)}{NOT_SHOWN}"
    if failure is Failure.CHANGED_INPUT:
        return changed_input_message(input_kinds) + NOT_SHOWN
    return HIDDEN_MESSAGES[failure] + NOT_SHOWN


def hidden_status(failure: Failure) -> Status:
    """A test that could not judge an output is an error, one that judged it a failure."""
    return Status.ERROR if failure in ERROR_FAILURES else Status.FAILED


def hidden_view(result: TestResult) -> TestResult:
    """``result`` as a hidden test shows it: its failure's fixed message."""
    failure = result.failure
    if failure is None:
        return TestResult(
            result.name, Visibility.HIDDEN, Status.PASSED, result.max_points, result.max_points
        )
    # Partial credit follows from the failed checks, which the hidden test names anyway.
    kept = result.points if failure is Failure.PROPERTY else 0.0
    return TestResult(
        result.name,
        Visibility.HIDDEN,
        hidden_status(failure),
        kept,
        result.max_points,
        hidden_message(failure, result.failed_checks, result.input_kinds),
        failure,
        result.failed_checks if failure is Failure.PROPERTY else (),
    )


def hidden_outcomes() -> frozenset[Failure | None]:
    """Every failure a hidden test can show (``None``: passed); its status, points and message
    follow from it, and for ``Failure.PROPERTY`` from the set of checks that failed."""
    return frozenset({None, *Failure})


def outcome_count(checks: Collection[str] = ()) -> int:
    """How many different things a hidden test whose case has ``checks`` (their names) can
    show: passed, each other category, and ``property`` with each non-empty set of its
    checks (or without names)."""
    return len(hidden_outcomes()) - 1 + max(1, (1 << len(checks)) - 1)


def diagnosis_outcomes(hints: Collection[str]) -> frozenset[str | None]:
    """Every hint a report's diagnosis can show, given the exercise's candidates' hints: theirs
    and the checks' fixed hints (``None``: no diagnosis)."""
    return frozenset({None, *hints, *CHECK_HINTS.values()})


def leak_bound_bits(hints: Collection[str], checks: Collection[str] = ()) -> float:
    """The most a submission can learn of one hidden case with ``checks`` (their names), in
    bits: the test's outcome, and at worst all of the one diagnosis of the submission."""
    return math.log2(outcome_count(checks) * len(diagnosis_outcomes(hints)))
