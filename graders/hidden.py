"""What a hidden test may tell the learner: its name, its points, passed or not, one
``Failure`` from a fixed vocabulary and, on a wrong output, an author's hint.

A hidden test's message is a function of its ``Failure`` alone, so nothing the learner's code
wrote and no number from a hidden input or from the learner's output on it can reach the
report: per hidden case and submission the learner learns at most ``leak_bound_bits`` (the
log2 of the number of distinct things the test can show; docs/security.md).
"""

from __future__ import annotations

import math
from collections.abc import Collection

from graders.results import Failure, Status, TestResult, Visibility

NOT_SHOWN = " (details are not shown for hidden tests)"
HIDDEN_MESSAGES = {
    Failure.WRONG_TYPE: "type: the output is not of the expected type",
    Failure.WRONG_SHAPE: "shape: the output does not have the expected shape",
    Failure.WRONG_DTYPE: "dtype: the output does not have the expected dtype",
    Failure.NON_FINITE: ("finiteness: NaN or Inf where finite values were expected; look for "
                         "overflow, e.g. exp() of a large number"),
    Failure.VALUES: "values: the output differs from the expected one beyond the tolerance",
    Failure.EXCEPTION: "raised an exception",
    Failure.CHANGED_INPUT: ("inputs: the function changed an input in place; work on a copy "
                            "(e.g. x = x.copy()) or build new arrays"),
    Failure.INCONSISTENT_BATCH: ("batch consistency: the batched result differs from the "
                                 "results of single examples"),
    Failure.TIME_LIMIT: "time limit exceeded",
    Failure.MEMORY_LIMIT: "ran out of memory (MemoryError)",
    Failure.CRASHED: "the process ended before all tests ran",
}
ERROR_FAILURES = frozenset({Failure.EXCEPTION, Failure.TIME_LIMIT, Failure.MEMORY_LIMIT,
                            Failure.CRASHED})


def hidden_message(failure: Failure) -> str:
    return HIDDEN_MESSAGES[failure] + NOT_SHOWN


def hidden_status(failure: Failure) -> Status:
    """A test that could not judge an output is an error, one that judged it a failure."""
    return Status.ERROR if failure in ERROR_FAILURES else Status.FAILED


def hidden_view(result: TestResult, authored_hints: Collection[str]) -> TestResult:
    """``result`` as a hidden test shows it: its failure's fixed message, and its hint only
    when it is one the exercise's author wrote (so never text computed from an output) and
    an output was judged."""
    failure = result.failure
    if failure is None:
        return TestResult(result.name, Visibility.HIDDEN, Status.PASSED, result.max_points,
                          result.max_points)
    hint = result.hint if result.hint in authored_hints and failure not in ERROR_FAILURES \
        else None
    return TestResult(result.name, Visibility.HIDDEN, hidden_status(failure), 0.0,
                      result.max_points, hidden_message(failure), hint, failure)


Outcome = tuple[Failure | None, str | None]


def hidden_outcomes(authored_hints: Collection[str]) -> frozenset[Outcome]:
    """Every (failure, hint) a hidden test can show; its status, points and message follow
    from them. ``(None, None)`` is a pass."""
    hinted = [failure for failure in Failure if failure not in ERROR_FAILURES]
    return frozenset({(None, None), *((failure, None) for failure in Failure),
                      *((failure, hint) for failure in hinted for hint in set(authored_hints))})


def leak_bound_bits(authored_hints: Collection[str]) -> float:
    """The most a submission can learn of one hidden case, in bits."""
    return math.log2(len(hidden_outcomes(authored_hints)))
