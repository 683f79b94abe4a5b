"""A report's parts: a test's result as its audience may read it, why a run ended early, the
run's cost, the printed output and the overall verdict."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from graders.checks.hidden import HIDDEN_MESSAGES, hidden_view
from graders.checks.layout import explain_shape_error
from graders.checks.rules import (
    Unreadable,
    find_violations,
    violations_message,
)
from graders.exercises import PreparedCase, PreparedExercise
from graders.grading.plan import Audience, CasePlan
from graders.results import (
    Cost,
    Failure,
    GradeReport,
    Status,
    TestResult,
    Verdict,
    Visibility,
)
from graders.sandbox.exitcodes import EXIT_MEMORY_LIMIT
from graders.sandbox.limits import SandboxLimits
from graders.sandbox.protocol import (
    Ending,
    RunResult,
)
from graders.sandbox.scenario import NotUpdatedInPlace, WrongReturn


def cost_of(run: RunResult) -> Cost | None:
    if run.usage is None:
        return None
    return Cost(
        cpu_ms=round(run.usage.cpu_s * 1000), memory_kb=round(run.usage.memory_bytes / 1024)
    )


def rules_report(
    prepared: PreparedExercise,
    plans: Sequence[CasePlan],
    code: str,
    audience: Audience = Audience.LEARNER,
) -> GradeReport | None:
    """The report of code that breaks the exercise's rules, which is then not run; ``None``
    when it keeps them. The message names each use by line: it tells of the learner's own
    code, nothing of a hidden input, so the report may carry it."""
    exercise = prepared.exercise
    try:
        violations = find_violations(code, exercise.forbid)
    except Unreadable as exc:
        message = f"rules: the code was not run, because {exc} against this exercise's rules"
    else:
        if not violations:
            return None
        message = violations_message(violations)
    return forbidden_report(prepared, plans, message, audience)


def forbidden_report(
    prepared: PreparedExercise,
    plans: Sequence[CasePlan],
    message: str,
    audience: Audience,
) -> GradeReport:
    """Every test failed as ``forbidden`` with ``message``, which tells of the learner's code
    or its public calls only: a hidden test shows the category's fixed message."""
    exercise = prepared.exercise
    tests, hidden_messages = shown(
        (test_result(plan.case, Status.FAILED, message, Failure.FORBIDDEN) for plan in plans),
        audience,
    )
    return GradeReport(
        exercise=exercise.id,
        version=exercise.version,
        verdict=Verdict.FAILED,
        tests=tests,
        message=message,
        hidden_messages=hidden_messages,
    )


def with_isolation_note(report: GradeReport, run: RunResult) -> GradeReport:
    """A report graded without some isolation layer says so (only ever when not strict)."""
    if not run.missing_layers:
        return report
    note = "graded with reduced isolation (NUMJUDGE_SANDBOX_STRICT=false), without: " + "; ".join(
        run.missing_layers
    )
    return replace(report, message=f"{report.message} ({note})" if report.message else note)


def shown(
    results: Iterable[TestResult], audience: Audience = Audience.LEARNER
) -> tuple[tuple[TestResult, ...], dict[str, str]]:
    """The results as ``audience`` sees them (the learner's in full when public, reduced to a
    fixed message when hidden; the author's always in full), and by name the full message of
    each that was reduced: the report's ``hidden_messages``, which never go back to the
    sandbox and which the learner reads only after a reveal."""
    tests: list[TestResult] = []
    hidden_messages: dict[str, str] = {}
    for result in results:
        if result.visibility is Visibility.PUBLIC or audience is Audience.AUTHOR:
            tests.append(result)
            continue
        tests.append(hidden_view(result))
        if result.message:
            hidden_messages[result.name] = result.message
    return tuple(tests), hidden_messages


def unfinished_reason(run: RunResult, limits: SandboxLimits) -> tuple[Failure, str] | None:
    """Why the run stopped early, told in full only if it stopped before any hidden case."""
    if run.ending is Ending.COMPLETED:
        return None
    if run.ending in (Ending.TIMEOUT, Ending.WALL_LIMIT) and run.hidden_started:
        # Whether it computed or waited could depend on a hidden input: one text for both.
        return Failure.TIME_LIMIT, (
            f"time limit exceeded during a hidden test ({limits.time_s:g} s of CPU time, or "
            f"{limits.wall_s:g} s mostly spent waiting; details are not shown for hidden tests)"
        )
    if run.ending is Ending.TIMEOUT:
        return (
            Failure.TIME_LIMIT,
            f"time limit exceeded ({limits.time_s:g} s of CPU time for the whole submission)",
        )
    if run.ending is Ending.WALL_LIMIT:
        return Failure.TIME_LIMIT, (
            f"wall-clock limit exceeded while waiting: after {limits.wall_s:g} s the code had "
            "spent most of that time sleeping or blocked, not computing (the time limit is "
            f"{limits.time_s:g} s of CPU time)"
        )
    if run.hidden_started:
        return Failure.CRASHED, (
            f"{HIDDEN_MESSAGES[Failure.CRASHED]}: it ended during a hidden "
            "test (details are not shown for hidden tests)"
        )
    if run.ending is Ending.OUTPUT_LIMIT:
        return Failure.CRASHED, run.message
    if run.ending is Ending.PROTOCOL_ERROR:
        return Failure.CRASHED, (
            "the grader could not read your results (did the code write "
            "to the grader's channel, or fork?)"
        )
    return Failure.CRASHED, run.message or "the process ended before all tests ran"


def overall_verdict(run: RunResult, tests: Sequence[TestResult], task_count: int) -> Verdict:
    if run.ending in (Ending.TIMEOUT, Ending.WALL_LIMIT):
        return Verdict.TIMEOUT
    if run.exit_code == EXIT_MEMORY_LIMIT:
        return Verdict.MEMORY_LIMIT
    if any(o.error and o.error.get("type") == "MemoryError" for o in run.outcomes.values()):
        return Verdict.MEMORY_LIMIT
    if run.ending is not Ending.COMPLETED or len(run.outcomes) < task_count:
        return Verdict.ERROR
    if all(t.status is Status.PASSED for t in tests):
        return Verdict.PASSED
    return Verdict.FAILED


def not_run(case: PreparedCase, failure: Failure, why: str) -> TestResult:
    return test_result(case, Status.ERROR, f"not run: {why}", failure=failure)


def test_result(
    case: PreparedCase,
    status: Status,
    message: str = "",
    failure: Failure | None = None,
    failed: tuple[str, ...] = (),
) -> TestResult:
    spec = case.spec
    return TestResult(
        name=spec.name,
        visibility=Visibility.PUBLIC if spec.public else Visibility.HIDDEN,
        status=status,
        points=spec.points if status is Status.PASSED else 0.0,
        max_points=spec.points,
        message=message,
        failure=failure,
        failed_checks=failed,
        input_kinds=case.input_kinds if failure is Failure.CHANGED_INPUT else frozenset(),
    )


RUNNER_FAILURES = {
    NotUpdatedInPlace.__name__: Failure.CHANGED_INPUT,
    WrongReturn.__name__: Failure.WRONG_TYPE,
}
"""What a scenario's runner raises where the learner's call raised nothing but left or
returned what its step does not take, by the category it is told as: the test failed, and a
hidden one says what a check of that category says, not that an exception was raised."""


def error_failure(error: Mapping[str, Any]) -> Failure:
    kind = str(error.get("type"))
    if kind == "MemoryError":
        return Failure.MEMORY_LIMIT
    return RUNNER_FAILURES.get(kind, Failure.EXCEPTION)


def explained_error(
    error: dict[str, Any], inputs: Mapping[str, Any], batch_axes: Mapping[str, int]
) -> str:
    """The exception a call raised; a shape error first in words, numpy's own after; what a
    scenario's runner found (``RUNNER_FAILURES``) as it says it, after its step (``step 2,
    opt.step: params['w'] was replaced by a new array; update it in place``)."""
    if error.get("type") in RUNNER_FAILURES:
        said = re.fullmatch(r"(.+) \(in ([^()]+)\)", str(error.get("message", "")))
        if said:
            return f"{said[2]}: {said[1]}"
    explanation = explain_shape_error(error, inputs, batch_axes)
    return f"{explanation} ({describe_error(error)})" if explanation else describe_error(error)


def describe_error(error: dict[str, Any]) -> str:
    kind = str(error.get("type", "Exception"))
    if kind == "MemoryError":
        return "ran out of memory (MemoryError)"
    line = f" on line {error['line']}" if error.get("line") else ""
    message = f": {error['message']}" if error.get("message") else ""
    return f"raised {kind}{line}{message}"


def collect_output(run: RunResult, plans: Sequence[CasePlan]) -> str:
    """What the code printed while loading and on public cases, before any hidden input was
    in the sandbox; of hidden cases the sandbox sends no text at all."""
    parts = [run.load_stdout] if run.load_stdout else []
    for plan in plans:
        if not plan.case.spec.public:
            continue
        printed = "".join(
            run.outcomes[i].stdout for i in (plan.main, *plan.slices) if i in run.outcomes
        )
        if printed:
            parts.append(f"--- {plan.case.name} ---\n{printed}")
    output = "\n".join(parts)
    if run.dropped_chars:
        output += f"\n[... {run.dropped_chars} more characters were cut]"
    return output
