"""Grading a submission: run it in the sandbox, then judge each case on the trusted side."""

from __future__ import annotations

import functools
import logging
import re
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from graders.cases import CaseKind
from graders.checks.batches import UNCOMBINABLE, combined_text, compare_batched
from graders.checks.compare import PASS, Check, CheckResult, Tolerance, compare
from graders.checks.diagnosis import (
    UNTOLD,
    Observation,
    array_dtypes,
    diagnose,
    diagnose_by_check,
    exception_kind,
)
from graders.checks.error_map import error_map
from graders.checks.hidden import HIDDEN_MESSAGES, hidden_view
from graders.checks.layout import explain_shape_error
from graders.checks.outputs import OutputSpec, output_batch_axis
from graders.checks.properties import failed_checks, failures_message
from graders.checks.rules import (
    Unreadable,
    find_violations,
    forbids_loops,
    repeats_message,
    violations_message,
)
from graders.checks.timing import (
    SPEED_RUN_WRONG,
    Speed,
    best_cpu,
    over_time_limit,
    slow_message,
    stopped_message,
)
from graders.errors import SandboxError
from graders.exercises import Exercise, PreparedCase, PreparedExercise, WarningPolicy
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
from graders.sandbox.limits import CpuPriority, SandboxLimits
from graders.sandbox.protocol import (
    BatchItem,
    Deferral,
    EncodedTasks,
    Ending,
    RunResult,
    Task,
    TaskOutcome,
    encode_tasks,
)
from graders.sandbox.runner import Sandbox

logger = logging.getLogger(__name__)


class Audience(Enum):
    """Who reads a report: what its hidden tests say, and how their calls reach the sandbox."""

    LEARNER = "learner"
    """A hidden test shows only its failure's fixed message (graders/checks/hidden.py), its
    full one kept apart in the report's ``hidden_messages``; its inputs reach the sandbox a
    case at a time, after every public call."""
    AUTHOR = "author"
    """Every test shows its full message: the values, the exception's text, the warnings. For
    the exercise's author only (``numjudge validate``), on code the author wrote: every call
    runs as a public one, so the sandbox sends all its text. Verdict, points and diagnosis are
    the learner's, except that what the code prints on hidden cases counts toward the output
    limit."""


@dataclass(frozen=True)
class CasePlan:
    """Which sandbox tasks belong to a case: its main call and, when batched, one per slice;
    a speed case's further runs, one call each."""

    case: PreparedCase
    main: int
    slices: tuple[int, ...] = ()
    speed_runs: tuple[int, ...] = ()


def plan_tasks(
    cases: Sequence[PreparedCase], audience: Audience = Audience.LEARNER
) -> tuple[list[Task], list[CasePlan]]:
    """The calls of every case, public cases' first (the sandbox gets hidden inputs last),
    timed ones sent a case at a time (``timed_deferral``); the plans stay in the cases' order.
    For the author, every call is sent as a public one."""
    tasks: list[Task] = []
    plans = {}
    for case in sorted(cases, key=lambda case: sending_rank(case, audience)):
        deferral = timed_deferral(case, audience)
        hidden = sending_rank(case, audience) > 0
        main = len(tasks)
        tasks.append(
            Task(
                tuple(case.inputs),
                tuple(case.inputs.values()),
                flush=not case.slice_inputs,
                hidden=hidden,
                deferral=deferral,
            )
        )
        slices = []
        axes = tuple(case.spec.batch_axes.items())
        for number, inputs in enumerate(case.slice_inputs, start=1):
            slices.append(len(tasks))
            tasks.append(
                Task(
                    tuple(inputs),
                    (),
                    flush=number == len(case.slice_inputs),
                    hidden=hidden,
                    item=BatchItem(number - 1, axes),
                )
            )
        runs = []
        for run in case.speed_runs:
            runs.append(len(tasks))
            inputs = run.inputs
            tasks.append(
                Task(tuple(inputs), tuple(inputs.values()), hidden=True, deferral=deferral)
            )
        plans[case.name] = CasePlan(case, main, tuple(slices), tuple(runs))
    return tasks, [plans[case.name] for case in cases]


def sending_rank(case: PreparedCase, audience: Audience) -> int:
    """0: sent with the code; 1: a public case sent alone to be timed, before any hidden
    case; 2: a hidden case, sent alone."""
    if case.spec.public or audience is Audience.AUTHOR:
        return 1 if case.spec.timed else 0
    return 2


def timed_deferral(case: PreparedCase, audience: Audience) -> Deferral:
    """How a case sent alone travels: a timed case's CPU time is read around it."""
    if not case.spec.timed:
        return Deferral()
    return Deferral(shown=sending_rank(case, audience) == 1, timed=True, limit_s=case.spec.time_s)


@functools.lru_cache(maxsize=64)
def planned(
    prepared: PreparedExercise, public_only: bool, audience: Audience = Audience.LEARNER
) -> tuple[EncodedTasks, tuple[CasePlan, ...]]:
    """The encoded tasks and case plans of an exercise version, computed once."""
    cases = prepared.public_cases if public_only else prepared.cases
    tasks, plans = plan_tasks(cases, audience)
    return encode_tasks(tasks, repeats=forbids_loops(prepared.exercise.forbid)), tuple(plans)


def grade(
    prepared: PreparedExercise,
    code: str,
    sandbox: Sandbox,
    *,
    public_only: bool = False,
    priority: CpuPriority = CpuPriority.NORMAL,
    limits: SandboxLimits | None = None,
    audience: Audience = Audience.LEARNER,
) -> GradeReport:
    """Grade ``code`` against the exercise's cases (only the public ones if ``public_only``).

    The sandbox runs under the pool's limits with the exercise's time and memory limits and
    ``priority``, unless ``limits`` overrides them all. The report's duration is the time
    until the first hidden case was sent: how long hidden cases take is not the learner's to
    know. Its cost (the CPU time and peak memory of the whole run) is for instructors only.
    ``audience`` says who reads the hidden tests' messages (``Audience``).
    Raises ``SandboxStarved`` when the host gave the submission too little CPU to judge it
    (or the reference, run after it for a speed rule: ``held_to_speed_rules``).
    """
    exercise = prepared.exercise
    limits = limits or replace(
        sandbox.limits.with_exercise_limits(exercise.limits.time_s, exercise.limits.memory_mb),
        priority=priority,
    )
    tasks, plans = planned(prepared, public_only, audience)
    forbidden = rules_report(prepared, plans, code, audience)
    if forbidden is not None:
        return forbidden
    started = time.perf_counter()
    run = sandbox.run(code, exercise.sandbox_entry, tasks, limits)
    duration_ms = round(((run.hidden_started_at or time.perf_counter()) - started) * 1000)
    if run.repeats is not None:
        return forbidden_report(prepared, plans, repeats_message(run.repeats), audience)
    try:
        report = judge(prepared, plans, run, limits, duration_ms, audience)
        report = held_to_speed_rules(report, prepared, plans, run, sandbox, limits, audience)
        return replace(with_isolation_note(report, run), cost=cost_of(run))
    except SandboxError:
        raise  # the reference's run for a speed rule failed: the engine's fault, not the code's
    except Exception as exc:  # the values came from the sandbox: hostile until judged
        logger.warning("results of a submission to %s could not be judged: %r", exercise.id, exc)
        # Which exception it was could depend on a hidden output: not named.
        message = "the grader could not judge your results"
        tests, hidden_messages = shown(
            (not_run(plan.case, Failure.CRASHED, message) for plan in plans), audience
        )
        return GradeReport(
            exercise=exercise.id,
            version=exercise.version,
            verdict=Verdict.ERROR,
            duration_ms=duration_ms,
            message=message,
            tests=tests,
            cost=cost_of(run),
            hidden_messages=hidden_messages,
        )


def held_to_speed_rules(
    report: GradeReport,
    prepared: PreparedExercise,
    plans: Sequence[CasePlan],
    run: RunResult,
    sandbox: Sandbox,
    limits: SandboxLimits,
    audience: Audience,
) -> GradeReport:
    """Each speed case whose values passed, held to its rule: its best CPU time over its runs
    against the reference's on the same frames, run now, on this host (docs/authoring.md,
    "Speed rules")."""
    pending = [
        index
        for index, (plan, test) in enumerate(zip(plans, report.tests, strict=True))
        if plan.case.spec.max_slowdown is not None and test.status is Status.PASSED
    ]
    if not pending:
        return report
    reference = reference_cpu(prepared, [plans[index].case for index in pending], sandbox, limits)
    timed, timed_messages = shown(
        (
            speed_verdict(plan, run, reference.get(plan.case.name), prepared.exercise.outputs)
            for plan in (plans[index] for index in pending)
        ),
        audience,
    )
    tests = list(report.tests)
    for index, test in zip(pending, timed, strict=True):
        tests[index] = test
    retimed = replace(
        report, tests=tuple(tests), hidden_messages={**report.hidden_messages, **timed_messages}
    )
    if report.verdict is Verdict.PASSED and any(t.status is not Status.PASSED for t in tests):
        # Only speed failed: the values of every case are right, its hint says so.
        slow = [(t.name, t.failure) for t in tests if t.status is not Status.PASSED]
        return replace(retimed, verdict=Verdict.FAILED, diagnosis=diagnose_by_check(slow, []))
    return retimed


def reference_cpu(
    prepared: PreparedExercise,
    cases: Sequence[PreparedCase],
    sandbox: Sandbox,
    limits: SandboxLimits,
) -> dict[str, float]:
    """The reference's best CPU time on each speed case, over the same frames as the code's,
    measured the same way (a case whose runs were not all timed is left out)."""
    exercise = prepared.exercise
    tasks, plans = plan_tasks(cases, Audience.AUTHOR)
    run = sandbox.run(reference_code(prepared), exercise.entry, tasks, limits)
    best = {
        plan.case.name: best_cpu([run.case_cpu_s.get(i) for i in (plan.main, *plan.speed_runs)])
        for plan in plans
    }
    return {name: cpu for name, cpu in best.items() if cpu is not None}


@functools.lru_cache(maxsize=16)
def reference_code(prepared: PreparedExercise) -> str:
    """The reference's source, read once per prepared version."""
    return (prepared.exercise.path / "solution.py").read_text(encoding="utf-8")


def speed_verdict(
    plan: CasePlan, run: RunResult, reference_s: float | None, declared: Sequence[OutputSpec]
) -> TestResult:
    """A speed case whose first run's values passed: its further runs' values, then its best
    CPU time against the reference's ``reference_s``."""
    case = plan.case
    rule = case.spec.max_slowdown
    tolerance = Tolerance(case.spec.rtol, case.spec.atol)
    for index, again in zip(plan.speed_runs, case.speed_runs, strict=True):
        outcome = run.outcomes.get(index)
        if outcome is None:
            return test_result(case, Status.PASSED)  # the run's ending tells why
        if (
            not outcome.ok
            or not compare(again.expected, outcome.value, tolerance, None, declared).passed
        ):
            return test_result(case, Status.FAILED, SPEED_RUN_WRONG, Failure.VALUES)
    code_s = best_cpu([run.case_cpu_s.get(i) for i in (plan.main, *plan.speed_runs)])
    if rule is None or code_s is None or reference_s is None:
        logger.warning("speed case %r was not timed", case.name)
        return test_result(case, Status.PASSED)
    speed = Speed(code_s, reference_s)
    if speed.ratio <= rule:
        return test_result(case, Status.PASSED)
    return test_result(case, Status.FAILED, slow_message(case.name, speed, rule), Failure.SLOW)


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


def judge(
    prepared: PreparedExercise,
    plans: Sequence[CasePlan],
    run: RunResult,
    limits: SandboxLimits,
    duration_ms: int = 0,
    audience: Audience = Audience.LEARNER,
) -> GradeReport:
    """Turn a sandbox run into a report; pure apart from reading its arguments."""
    exercise = prepared.exercise
    report = functools.partial(
        GradeReport, exercise=exercise.id, version=exercise.version, duration_ms=duration_ms
    )
    if run.ending is Ending.LOAD_ERROR:
        error = run.load_error or {}
        memory = error.get("type") == "MemoryError"
        failure = Failure.MEMORY_LIMIT if memory else Failure.EXCEPTION
        tests, hidden_messages = shown(
            (not_run(plan.case, failure, "the code could not be loaded") for plan in plans),
            audience,
        )
        return report(
            verdict=Verdict.MEMORY_LIMIT if memory else Verdict.ERROR,
            tests=tests,
            output=run.load_stdout,
            message=f"Your code could not be loaded: {describe_error(error)}",
            hidden_messages=hidden_messages,
        )
    stopped = stopped_by_own_limit(plans, run, limits)
    # How a hidden case's run ended could depend on its inputs: told as any other timeout.
    told = stopped and (stopped.case.spec.public or audience is Audience.AUTHOR)
    unfinished = (
        (Failure.TIME_LIMIT, stopped_message(stopped.case.name, stopped.case.spec.time_s or 0))
        if stopped and told
        else unfinished_reason(run, limits)
    )
    tests, hidden_messages = shown(
        (guarded_judge_case(plan, run, unfinished, exercise, plan is stopped) for plan in plans),
        audience,
    )
    task_count = sum(1 + len(plan.slices) + len(plan.speed_runs) for plan in plans)
    verdict = overall_verdict(run, tests, task_count)
    diagnosis = None
    if verdict is not Verdict.PASSED:
        observed = observations(plans, run, tests)
        diagnosis = diagnose(prepared.candidates, observed) or diagnose_by_check(
            [(t.name, t.failure) for t in tests if t.status is not Status.PASSED], observed
        )
    return report(
        verdict=verdict,
        tests=tests,
        output=collect_output(run, plans),
        message=unfinished[1] if unfinished else "",
        diagnosis=diagnosis,
        hidden_messages=hidden_messages,
    )


def observations(
    plans: Sequence[CasePlan], run: RunResult, tests: Sequence[TestResult]
) -> list[Observation]:
    """The cases whose main call returned a value or raised, for matching against known
    mistakes (on the trusted side: the diagnosis is one of the candidates' trusted texts).

    A call that ran out of memory or time is no observation: that depends on the limits as
    much as on the code. A hidden call's exception is known by no type (``UNTOLD``)."""
    found = []
    for plan, test in zip(plans, tests, strict=True):
        outcome = run.outcomes.get(plan.main)
        if outcome is None:
            continue
        if outcome.ok:
            found.append(
                Observation(
                    plan.case.name,
                    plan.case.table,
                    outcome.value,
                    test.status is Status.PASSED,
                    failed_checks=frozenset(test.failed_checks),
                    generators=outcome.generators,
                    # A hidden case's expected output is told nothing of, its dtype included.
                    expected_dtypes=array_dtypes(plan.case.expected)
                    if plan.case.spec.public
                    else (),
                )
            )
            continue
        error = outcome.error or {}
        raised = str(error.get("type", ""))
        if raised != "MemoryError":
            kind = exception_kind(raised, str(error.get("message", "")))
            found.append(
                Observation(
                    plan.case.name,
                    plan.case.table,
                    None,
                    False,
                    kind if plan.case.spec.public else UNTOLD,
                )
            )
    return found


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


def stopped_by_own_limit(
    plans: Sequence[CasePlan], run: RunResult, limits: SandboxLimits
) -> CasePlan | None:
    """The case at whose own time limit the zygote stopped the run (the whole run's CPU time
    was not used up), if it was: the cases after it did not run."""
    if run.ending is not Ending.TIMEOUT or (run.usage and run.usage.cpu_s >= limits.time_s):
        return None
    for plan in plans:
        if plan.case.spec.time_s is not None and run.case_in_flight in (
            plan.main,
            *plan.speed_runs,
        ):
            return plan
    return None


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
    )


def error_failure(error: Mapping[str, Any]) -> Failure:
    return Failure.MEMORY_LIMIT if error.get("type") == "MemoryError" else Failure.EXCEPTION


def explained_error(
    error: dict[str, Any], inputs: Mapping[str, Any], batch_axes: Mapping[str, int]
) -> str:
    """The exception a call raised; a shape error first in words, numpy's own after."""
    explanation = explain_shape_error(error, inputs, batch_axes)
    return f"{explanation} ({describe_error(error)})" if explanation else describe_error(error)


def describe_error(error: dict[str, Any]) -> str:
    kind = str(error.get("type", "Exception"))
    if kind == "MemoryError":
        return "ran out of memory (MemoryError)"
    line = f" on line {error['line']}" if error.get("line") else ""
    message = f": {error['message']}" if error.get("message") else ""
    return f"raised {kind}{line}{message}"


UNJUDGED = "the grader could not judge this test's result"


def guarded_judge_case(
    plan: CasePlan,
    run: RunResult,
    unfinished: tuple[Failure, str] | None,
    exercise: Exercise,
    stopped: bool = False,
) -> TestResult:
    """``judge_case``, where a value the grader cannot judge errs this test alone: the other
    tests are judged as they would be without it."""
    try:
        return judge_case(plan, run, unfinished, exercise, stopped)
    except Exception as exc:  # the values came from the sandbox: hostile until judged
        logger.warning(
            "case %r of a submission to %s could not be judged: %r",
            plan.case.name,
            exercise.id,
            exc,
        )
        # Which exception it was could depend on a hidden output: not named.
        return test_result(plan.case, Status.ERROR, UNJUDGED, Failure.CRASHED)


def judge_case(
    plan: CasePlan,
    run: RunResult,
    unfinished: tuple[Failure, str] | None,
    exercise: Exercise,
    stopped: bool = False,
) -> TestResult:
    """``stopped``: the run was stopped at this case's own time limit."""
    over = over_own_limit(plan, run, stopped)
    if over is not None:
        return test_result(plan.case, Status.ERROR, over, Failure.TIME_LIMIT)
    outcome = run.outcomes.get(plan.main)
    if outcome is None:
        failure, why = unfinished or (Failure.CRASHED, "no result came back")
        return not_run(plan.case, failure, why)
    judged = judge_outcome(plan, run, outcome, exercise)
    if not outcome.warnings or judged.failure is Failure.WARNING:
        return judged
    # A warning that costs no points is still worth knowing about: an overflow the values
    # hide. (Only public calls report warnings.)
    note = "warning: " + "; ".join(outcome.warnings)
    return replace(judged, message=f"{judged.message} ({note})" if judged.message else note)


def over_own_limit(plan: CasePlan, run: RunResult, stopped: bool) -> str | None:
    """The message of a case that went over its own time limit, in CPU time read around its
    frames (docs/authoring.md, "Time limits per case"); None if it did not, or has none."""
    limit = plan.case.spec.time_s
    if limit is None:
        return None
    if stopped:
        return over_time_limit(plan.case.name, limit, None)
    used = [
        run.case_cpu_s[first] for first in (plan.main, *plan.speed_runs) if first in run.case_cpu_s
    ]
    if any(cpu > limit for cpu in used):
        return over_time_limit(plan.case.name, limit, max(used))
    return None


def judge_outcome(
    plan: CasePlan, run: RunResult, outcome: TaskOutcome, exercise: Exercise
) -> TestResult:
    case = plan.case
    if not outcome.ok:
        error = outcome.error or {}
        return test_result(
            case,
            Status.ERROR,
            explained_error(error, case.inputs, case.spec.batch_axes),
            failure=error_failure(error),
        )
    tolerance = Tolerance(case.spec.rtol, case.spec.atol)
    declared = case.declared(exercise)
    batch_axis = (
        output_batch_axis(case.spec.output_batch_axis, declared) if case.spec.batched else None
    )
    # A property case has no expected output to compare with: its checks judge it alone.
    result = (
        compare(case.expected, outcome.value, tolerance, batch_axis, declared)
        if case.spec.kind is CaseKind.REFERENCE
        else PASS
    )
    if result.passed:
        result = further_checks(plan, run, outcome, tolerance, exercise)
    if result.passed:
        return test_result(case, Status.PASSED)
    check = result.check or Check.VALUES
    failed = test_result(case, Status.FAILED, result.message, check.category, result.failed_checks)
    if not case.spec.public or failed.failure is not Failure.VALUES:
        return failed
    # Only a public case's values are drawn: its expected output is the learner's to see.
    # The picture is the message's own comparison: the same worst element, error, tolerance.
    picture = error_map(result.deviation, tags=exercise.tags) if result.deviation else None
    return replace(failed, error_map=picture)


def further_checks(
    plan: CasePlan, run: RunResult, outcome: TaskOutcome, tolerance: Tolerance, exercise: Exercise
) -> CheckResult:
    """The case's own checks (each failing one named), batch consistency, in-place changes,
    where the call left its generators and, where the exercise says so, warnings, once the
    values match (at once in a property case)."""
    case = plan.case
    failures = failed_checks(case.spec.checks, case.inputs, outcome.value)
    if failures:
        return CheckResult(
            False,
            Check.AUTHOR,
            failures_message(failures),
            tuple(failure.name for failure in failures),
        )
    if plan.slices:
        result = batch_consistency(plan, run, outcome.value, tolerance, case.declared(exercise))
        if not result.passed:
            return result
    if outcome.mutated:
        return CheckResult(False, Check.INPUTS, changed_inputs_message(case, outcome.mutated))
    elsewhere = [
        name for name, state in case.generators.items() if outcome.generators.get(name) != state
    ]
    if elsewhere:
        return CheckResult(False, Check.INPUTS, generators_message(elsewhere))
    if outcome.warned and exercise.warnings is WarningPolicy.FAIL:
        # A hidden call tells only that it warned; its test shows the category alone.
        raised = "; ".join(outcome.warnings) or "a warning"
        return CheckResult(
            False,
            Check.WARNINGS,
            f"warnings: the values are right, but the "
            f"call raised {raised}, and this exercise counts a warning as a "
            f"failure; {warning_advice(outcome.warnings, exercise.tags)}",
        )
    return CheckResult(True)


def changed_inputs_message(case: PreparedCase, mutated: Sequence[str]) -> str:
    """What the inputs check says of inputs a call changed in place (a scenario's are named by
    their step: ``step 1, affine_forward: x``)."""
    advice = "work on a copy (e.g. x = x.copy()) or build new arrays"
    if case.spec.scenario:
        names = "; ".join(mutated)
        return f"inputs: changed in place, which the statement does not ask for: {names}; {advice}"
    names = ", ".join(f"'{name}'" for name in mutated)
    return f"inputs: the function changed its input {names} in place; {advice}"


def generators_message(names: Sequence[str]) -> str:
    """What the inputs check says of generator arguments a call left elsewhere than the
    statement's draws leave them (a scenario's named by their step)."""
    if len(names) == 1:
        (name,) = names
        return (
            f"inputs: the generator '{name}' is not where the statement's draws leave it: "
            "draw from the generator itself (a copy leaves the caller's generator where it "
            "was), exactly the numbers the statement asks for"
        )
    quoted = ", ".join(f"'{name}'" for name in names)
    return (
        f"inputs: the generators {quoted} are not where the statement's draws leave them: "
        "draw from each itself (a copy leaves the caller's generator where it was), exactly "
        "the numbers the statement asks for"
    )


# numpy's floating-point warnings name the function: "overflow encountered in exp", then the
# harness says where the submission raised it: " (line 5, in softmax)".
WARNED_IN = re.compile(r"encountered in ([\w ]+?)(?: \(line \d+(?:, in (\w+))?\))?$")


def warning_advice(warnings: Sequence[str], tags: Sequence[str]) -> str:
    """What to do about the warnings a call raised, naming the functions numpy names and the
    learner's functions that called them; a sigmoid is suggested only in an exercise that has
    one (its tags say so)."""
    matches = [match for text in warnings if (match := WARNED_IN.search(text))]
    functions = list(dict.fromkeys(match.group(1) for match in matches))
    if not functions:
        return "find the operation that warns and make it stay finite and quiet for every input"
    callers = list(dict.fromkeys(match.group(2) for match in matches if match.group(2)))
    where = f" in {' and '.join(callers)}" if callers else ""
    calls = (
        "the call of {}{} that warns and make it"
        if len(functions) == 1
        else "the calls of {}{} that warn and make them"
    )
    advice = (
        f"find {calls.format(' and '.join(functions), where)} stay finite and quiet for every input"
    )
    if "exp" in functions and "sigmoid" in tags:
        advice += " (an overflow in exp calls for a stable sigmoid)"
    return advice


def batch_consistency(
    plan: CasePlan,
    run: RunResult,
    batched: Any,
    tolerance: Tolerance,
    declared: Sequence[OutputSpec] = (),
) -> CheckResult:
    check = Check.BATCH_CONSISTENCY
    values = []
    for item, index in enumerate(plan.slices):
        outcome = run.outcomes.get(index)
        if outcome is None or not outcome.ok:
            why = "did not run"
            if outcome is not None:
                error = outcome.error or {}
                explanation = explain_shape_error(error, plan.case.slice_inputs[item])
                why = (
                    describe_error(error)
                    if not explanation
                    else f"failed: {explanation} ({describe_error(error)})"
                )
            return CheckResult(
                False,
                Check.SINGLE_EXAMPLE,
                f"{check.value}: the batch works, but a single example (batch item {item}) {why}",
            )
        values.append(outcome.value)
    axis = plan.case.spec.output_batch_axis
    how = combined_text(axis, tuple(spec.batch for spec in declared))
    try:
        result = compare_batched(values, batched, axis, tolerance, declared)
    except UNCOMBINABLE as exc:
        return CheckResult(
            False, check, f"{check.value}: the unbatched results cannot be {how}: {exc}"
        )
    if result.passed:
        return result
    return CheckResult(
        False,
        check,
        f"{check.value}: the batched result differs from the "
        f"unbatched results {how}: {result.message}",
    )


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
