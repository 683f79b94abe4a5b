"""Grading a submission: run its planned tasks in the sandbox, then judge each case on the
trusted side (its values, its further checks, the advice its message gives)."""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from graders.cases import CaseKind, check_name, points_kept
from graders.checks.advice import generators_message, warning_advice
from graders.checks.batches import UNCOMBINABLE, combined_text, compare_batched
from graders.checks.compare import PASS, Check, CheckResult, Tolerance, compare
from graders.checks.diagnosis import (
    UNTOLD,
    Observation,
    array_dtypes,
    diagnose,
    diagnose_by_check,
    reported_exception_kind,
)
from graders.checks.error_map import error_map
from graders.checks.hidden import hidden_status
from graders.checks.layout import explain_shape_error
from graders.checks.outputs import OutputSpec, output_batch_axis
from graders.checks.properties import failed_checks, failures_message
from graders.checks.rules import (
    repeats_message,
)
from graders.checks.timing import (
    over_time_limit,
    stopped_message,
)
from graders.errors import SandboxError
from graders.exercises import Exercise, PreparedCase, PreparedExercise, WarningPolicy
from graders.grading.plan import Audience, CasePlan, planned
from graders.grading.report import (
    collect_output,
    cost_of,
    describe_error,
    error_failure,
    explained_error,
    forbidden_report,
    not_run,
    overall_verdict,
    rules_report,
    shown,
    test_result,
    unfinished_reason,
    with_isolation_note,
)
from graders.grading.speed import held_to_speed_rules
from graders.results import (
    Failure,
    GradeReport,
    Status,
    TestResult,
    Verdict,
)
from graders.sandbox.limits import CpuPriority, SandboxLimits
from graders.sandbox.protocol import (
    Ending,
    RunResult,
    TaskOutcome,
)
from graders.sandbox.runner import Sandbox

logger = logging.getLogger(__name__)


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
        kind = reported_exception_kind(outcome.error)
        if kind is not None:
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
        return with_limit_hint(
            test_result(plan.case, Status.ERROR, over, Failure.TIME_LIMIT), plan.case
        )
    outcome = run.outcomes.get(plan.main)
    if outcome is None:
        failure, why = unfinished or (Failure.CRASHED, "no result came back")
        result = not_run(plan.case, failure, why)
        in_flight = run.case_in_flight in (plan.main, *plan.slices, *plan.speed_runs)
        return with_limit_hint(result, plan.case) if in_flight else result
    judged = with_limit_hint(judge_outcome(plan, run, outcome, exercise), plan.case)
    if not outcome.warnings or judged.failure is Failure.WARNING:
        return judged
    # A warning that costs no points is still worth knowing about: an overflow the values
    # hide. (Only public calls report warnings.)
    note = "warning: " + "; ".join(outcome.warnings)
    return replace(judged, message=f"{judged.message} ({note})" if judged.message else note)


LIMITS = frozenset({Failure.TIME_LIMIT, Failure.MEMORY_LIMIT})


def with_limit_hint(result: TestResult, case: PreparedCase) -> TestResult:
    """A test that ran out of memory or time, with its case's ``limit_hint`` (the author's
    trusted words) after the message; any other test as it is. A hidden test's shown text is
    its category's fixed one whatever this adds (``shown``)."""
    hint = case.spec.limit_hint
    if result.failure not in LIMITS or not hint:
        return result
    return replace(result, message=f"{result.message}; hint: {hint}")


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
        failure = error_failure(error)
        return test_result(
            case,
            hidden_status(failure),  # what the runner found is a failure, not an error
            explained_error(error, case.inputs, case.spec.batch_axes),
            failure=failure,
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
    if result.failed_checks:
        kept = points_kept(case.spec.checks, result.failed_checks, case.spec.points)
        failed = replace(failed, points=kept)
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
    failures = failed_checks(case.spec.checks, case.inputs, checked_value(case, outcome.value))
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
    miscounted = calls_message(case, outcome.calls)
    if miscounted:
        return CheckResult(False, Check.CALLS, miscounted)
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


def calls_message(case: PreparedCase, calls: Mapping[str, int]) -> str:
    """What the calls check says of function inputs the main call called another number of
    times than the case's ``calls=`` asks ("" if none): the learner's count, the count asked
    and its function's name, which says why (the author's words)."""
    wrong = []
    for name, count in case.spec.calls.items():
        asked, got = count(case.inputs), calls[name]
        if got != asked:
            times = "once" if got == 1 else f"{got} times"
            wrong.append(
                f"{name} was called {times}, where the statement asks for {asked} "
                f"('{check_name(count)}')"
            )
    return f"{Check.CALLS.value}: " + "; ".join(wrong) if wrong else ""


def checked_value(case: PreparedCase, value: Any) -> Any:
    """What a case's checks receive: a scenario's compared values by name (``step 2,
    grad_check: error``), any other case's output as it is."""
    names = [spec.name for spec in case.named_outputs]
    if case.spec.scenario and type(value) is tuple and len(value) == len(names):
        return dict(zip(names, value, strict=True))
    return value


def changed_inputs_message(case: PreparedCase, mutated: Sequence[str]) -> str:
    """What the inputs check says of inputs a call changed in place (a scenario's are named by
    their step: ``step 1, affine_forward: x``)."""
    advice = "work on a copy (e.g. x = x.copy()) or build new arrays"
    if case.spec.scenario:
        names = "; ".join(mutated)
        return f"inputs: changed in place, which the statement does not ask for: {names}; {advice}"
    names = ", ".join(f"'{name}'" for name in mutated)
    return f"inputs: the function changed its input {names} in place; {advice}"


def batch_consistency(
    plan: CasePlan,
    run: RunResult,
    batched: Any,
    tolerance: Tolerance,
    declared: Sequence[OutputSpec] = (),
) -> CheckResult:
    """The batched call's result against the same case's examples run alone (batches of one
    where the exercise declares them): every example must run, and together they must make
    the batched result (graders/checks/batches.py says how they combine)."""
    check = Check.BATCH_CONSISTENCY
    of_one = plan.case.batches_of_one
    values = []
    for item, index in enumerate(plan.slices):
        outcome = run.outcomes.get(index)
        if outcome is None or not outcome.ok:
            return CheckResult(
                False,
                Check.SINGLE_EXAMPLE,
                f"{check.value}: the batch works, but {alone_text(item, of_one)} "
                f"{why_alone_failed(outcome, plan.case.slice_inputs[item])}",
            )
        values.append(outcome.value)
    axis = plan.case.spec.output_batch_axis
    how = combined_text(axis, tuple(spec.batch for spec in declared), of_one)
    try:
        result = compare_batched(values, batched, axis, tolerance, declared, of_one)
    except UNCOMBINABLE as exc:
        return CheckResult(
            False, check, f"{check.value}: the unbatched results cannot be {how}: {exc}"
        )
    if result.passed:
        return result
    alone = "results of batches of one" if of_one else "unbatched results"
    return CheckResult(
        False,
        check,
        f"{check.value}: the batched result differs from the {alone} {how}: {result.message}",
    )


def alone_text(item: int, of_one: bool) -> str:
    """How a message names one example run alone (each form has its template in
    graders/locale/messages.<lang>.toml)."""
    if of_one:
        return f"batch item {item} as a batch of one"
    return f"a single example (batch item {item})"


def why_alone_failed(outcome: TaskOutcome | None, inputs: Mapping[str, Any]) -> str:
    """Why an example run alone gave no value: it never ran, or what it raised, read against
    its inputs' shapes where the error is about them."""
    if outcome is None:
        return "did not run"
    error = outcome.error or {}
    explanation = explain_shape_error(error, inputs)
    if not explanation:
        return describe_error(error)
    return f"failed: {explanation} ({describe_error(error)})"
