"""Speed rules: the reference run again beside the cases held to them, and the verdict on
the submission's CPU time against the reference's."""

from __future__ import annotations

import functools
import logging
from collections.abc import Sequence
from dataclasses import replace

from graders.checks.compare import Tolerance, compare
from graders.checks.diagnosis import (
    diagnose_by_check,
)
from graders.checks.outputs import OutputSpec
from graders.checks.timing import (
    SPEED_RUN_WRONG,
    Speed,
    best_cpu,
    slow_message,
)
from graders.exercises import PreparedCase, PreparedExercise
from graders.grading.plan import Audience, CasePlan, plan_tasks
from graders.grading.report import shown, test_result
from graders.results import (
    Failure,
    GradeReport,
    Status,
    TestResult,
    Verdict,
)
from graders.sandbox.limits import SandboxLimits
from graders.sandbox.protocol import (
    RunResult,
)
from graders.sandbox.runner import Sandbox

logger = logging.getLogger(__name__)


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
