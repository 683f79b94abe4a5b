"""The checks of the reference and the starter: the reference passes every case, twice alike
and without warnings; the starter imports and runs; both keep the exercise's rules."""

from __future__ import annotations

import copy
import warnings
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from graders.authoring.render import describe_cost
from graders.authoring.result import ValidationResult, failing_tests, read
from graders.cases import CaseKind
from graders.checks.properties import failed_checks
from graders.checks.rules import Unreadable, find_violations
from graders.exercises import (
    PreparedCase,
    PreparedExercise,
    WarningPolicy,
    call_entry,
    entry_function,
    prepare_reference,
)
from graders.grading.grade import grade
from graders.grading.plan import Audience
from graders.mutation.runs import same
from graders.results import (
    Verdict,
)
from graders.sandbox.runner import Sandbox
from graders.sandbox.wire import live


def check_rules(prepared: PreparedExercise, sandbox: Sandbox, result: ValidationResult) -> None:
    """The reference, the starter and every mistake keep the exercise's rules: a learner who
    makes a known mistake is to read its hint, not be refused for how the mistake is written."""
    exercise = prepared.exercise
    files = [
        exercise.path / "solution.py",
        exercise.path / "starter.py",
        *(mistake.path for mistake in exercise.mistakes),
    ]
    for file in files:
        try:
            violations = find_violations(read(file), exercise.forbid)
        except Unreadable as exc:
            result.problems.append(f"{file.relative_to(exercise.path)}: {exc}")
            continue
        if violations:
            result.problems.append(
                f"{file.relative_to(exercise.path)}: breaks the exercise's [rules]: "
                + "; ".join(violation.message for violation in violations)
            )


def check_reference(prepared: PreparedExercise, sandbox: Sandbox, result: ValidationResult) -> None:
    exercise = prepared.exercise
    reference = entry_function(exercise.path / "solution.py", exercise.sandbox_entry)
    unstable = first_unstable_case(prepared, reference)
    if unstable is not None:
        result.problems.append(
            f"solution.py: is not deterministic: two calls on case "
            f"{unstable!r} return different outputs; the expected outputs "
            "must follow from the inputs alone (no unseeded random numbers)"
        )
        return
    report = grade(prepared, read(exercise.path / "solution.py"), sandbox, audience=Audience.AUTHOR)
    if report.verdict is not Verdict.PASSED:
        result.problems.append(
            f"solution.py: does not pass its own cases in the sandbox "
            f"({report.verdict.value}): {failing_tests(report)}"
        )
    if report.cost is not None:
        result.costs.append(f"reference: {describe_cost(report.cost, prepared.exercise.limits)}")
    if exercise.warnings is WarningPolicy.NOTE:  # under "fail" the cases above fail instead
        warned = reference_warnings(prepared, reference)
        if warned:
            result.problems.append(
                f'solution.py: warns ({"; ".join(warned)}); with warnings = "note" learners '
                "are not told, but a reference that overflows is numerically weak: make it "
                "warning-free (a stable formula, or np.errstate around a harmless overflow)"
            )


def first_unstable_case(prepared: PreparedExercise, function: Callable[..., Any]) -> str | None:
    """The first case on which two calls of ``function`` (trusted code: the reference or a
    mistake) return different outputs, if any; in a property case, outputs that fail
    different checks (two right answers there are alike)."""
    for case in prepared.cases:
        try:
            first, second = call_entry(function, case.inputs), call_entry(function, case.inputs)
        except Exception:  # raising is an answer too; preparation told the reference's
            continue
        if case.spec.kind is CaseKind.PROPERTY:
            stable = failed_names(case, first) == failed_names(case, second)
        else:
            stable = same(first, second, case.table.tolerance)
        if not stable:
            return case.name
    return None


def failed_names(case: PreparedCase, output: Any) -> tuple[str, ...]:
    return tuple(failure.name for failure in failed_checks(case.spec.checks, case.inputs, output))


def reference_warnings(prepared: PreparedExercise, reference: Callable[..., Any]) -> list[str]:
    """``case: warning`` for the first warning the reference raises on each case, the way a
    learner's call is watched (a warning it silences is none)."""
    found = []
    for case in prepared.cases:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            reference(*live(copy.deepcopy(list(case.inputs.values()))))
        if caught:
            first = caught[0]
            found.append(f"{case.name}: {first.category.__name__}: {first.message}")
    return found


def check_starter(prepared: PreparedExercise, sandbox: Sandbox, result: ValidationResult) -> None:
    report = grade(prepared, prepared.exercise.starter, sandbox, audience=Audience.AUTHOR)
    if report.verdict is Verdict.PASSED:
        result.problems.append("starter.py: passes every case; the starter must fail")
    elif report.verdict is not Verdict.FAILED:
        result.problems.append(
            f"starter.py: must import and run, but got {report.verdict.value}"
            f": {report.message or failing_tests(report)}"
        )


def check_determinism(
    prepared: PreparedExercise, sandbox: Sandbox, result: ValidationResult
) -> None:
    # A second preparation of what grading the reference reads: the candidates' outputs
    # (known mistakes, mined ones, mutants) are for diagnoses, which neither check compares.
    again = prepare_reference(prepared.exercise)
    code = read(prepared.exercise.path / "solution.py")
    first, second = grade(prepared, code, sandbox), grade(again, code, sandbox)
    if [t.to_dict() for t in first.tests] != [t.to_dict() for t in second.tests]:
        result.problems.append(
            "grading is not deterministic: two gradings of the reference "
            "differ (seed every random input from the rng argument)"
        )
    for before, after in zip(prepared.cases, again.cases, strict=True):
        if not _same_inputs(before.inputs, after.inputs):
            result.problems.append(
                f"cases.py: case {before.name!r} makes different inputs on "
                "each run; draw them from the rng argument"
            )


def _same_inputs(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    return a.keys() == b.keys() and all(_same_value(a[k], b[k]) for k in a)


def _same_value(a: Any, b: Any) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, np.ndarray):
        return a.dtype == b.dtype and np.array_equal(a, b, equal_nan=a.dtype.kind in "fc")
    if isinstance(a, float) and a != a and b != b:
        return True  # NaN inputs are the same input
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(_same_value(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return _same_inputs(a, b)
    if isinstance(a, np.random.Generator):
        # Two generators seeded alike are two objects: the same input when in the same state.
        return _same_value(a.bit_generator.state, b.bit_generator.state)
    return bool(a == b)
