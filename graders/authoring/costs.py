"""The checks of what cases cost: each fits its limits with room to spare, and a speed rule
can tell the reference from a slower submission."""

from __future__ import annotations

from graders.authoring.render import describe_cost
from graders.authoring.result import ValidationResult, read
from graders.checks.timing import MIN_SPEED_CPU_S, SPEED_MARGIN, SPEED_RUNS, Speed
from graders.exercises import (
    PreparedExercise,
)
from graders.grading.plan import Audience, plan_tasks
from graders.grading.report import cost_of
from graders.grading.speed import reference_cpu
from graders.sandbox.runner import Sandbox


def check_case_costs(
    prepared: PreparedExercise, sandbox: Sandbox, result: ValidationResult
) -> None:
    """The costliest case: the reference run on each case alone (loading it included)."""
    exercise = prepared.exercise
    code = read(exercise.path / "solution.py")
    limits = sandbox.limits.with_exercise_limits(exercise.limits.time_s, exercise.limits.memory_mb)
    costs = [
        (
            case.name,
            cost_of(sandbox.run(code, exercise.sandbox_entry, plan_tasks([case])[0], limits)),
        )
        for case in prepared.cases
    ]
    measured = [(name, cost) for name, cost in costs if cost is not None]
    if measured:
        name, cost = max(measured, key=lambda item: (item[1].cpu_ms, item[1].memory_kb))
        result.costs.append(
            f"slowest case, run alone: {name!r}, {describe_cost(cost, exercise.limits)}"
        )


def check_speed_rules(
    prepared: PreparedExercise, sandbox: Sandbox, result: ValidationResult
) -> None:
    """The reference keeps each speed rule with room to spare: measured twice, as a learner's
    code is against the reference, the two measurements are within ``SPEED_MARGIN`` times
    closer than the rule; and it takes enough CPU time to be measured."""
    exercise = prepared.exercise
    cases = [case for case in prepared.cases if case.spec.max_slowdown is not None]
    if not cases:
        return
    limits = sandbox.limits.with_exercise_limits(exercise.limits.time_s, exercise.limits.memory_mb)
    first = reference_cpu(prepared, cases, sandbox, limits)
    second = reference_cpu(prepared, cases, sandbox, limits)
    for case in cases:
        rule = case.spec.max_slowdown or 0.0
        if case.name not in first or case.name not in second:
            result.problems.append(f"cases.py: speed case {case.name!r} could not be timed")
            continue
        speed = Speed(first[case.name], second[case.name])
        spread = max(speed.ratio, 1 / speed.ratio)
        # Both measurements are printed, so that a refusal's figure is one the author read.
        result.costs.append(
            f"speed case {case.name!r}: the reference takes {speed.code_s:.3f} s, then "
            f"{speed.reference_s:.3f} s of CPU time measured again (each the best of "
            f"{SPEED_RUNS} runs), {spread:.2f}x apart; the rule allows {rule:g}x"
        )
        least = min(speed.code_s, speed.reference_s)
        if least < MIN_SPEED_CPU_S:
            result.problems.append(
                f"cases.py: speed case {case.name!r}: the reference takes only {least:.3f} s "
                f"of CPU time in one of its two measurements, too little to measure (at least "
                f"{MIN_SPEED_CPU_S:g} s each): make the input larger"
            )
        elif spread > rule / SPEED_MARGIN:
            result.problems.append(
                f"cases.py: speed case {case.name!r}: the reference measured against itself "
                f"is {spread:.2f}x, not within {rule:g}x / {SPEED_MARGIN:g}: the rule leaves "
                "too little room for measurement noise; allow more (max_slowdown) or make "
                "the input larger"
            )


def check_case_time_limits(
    prepared: PreparedExercise, sandbox: Sandbox, result: ValidationResult
) -> None:
    """The reference stays well within each case's own time limit: at most half of it, so
    that a learner's method as fast as the reference never meets the limit."""
    exercise = prepared.exercise
    cases = [case for case in prepared.cases if case.spec.time_s is not None]
    if not cases:
        return
    limits = sandbox.limits.with_exercise_limits(exercise.limits.time_s, exercise.limits.memory_mb)
    tasks, plans = plan_tasks(cases, Audience.AUTHOR)
    run = sandbox.run(read(exercise.path / "solution.py"), exercise.entry, tasks, limits)
    for plan in plans:
        limit = plan.case.spec.time_s or 0.0
        times = [run.case_cpu_s.get(first) for first in (plan.main, *plan.speed_runs)]
        if any(cpu is None for cpu in times):
            result.problems.append(
                f"cases.py: case {plan.case.name!r}: the reference was stopped at the case's "
                f"own limit (time_s={limit:g}): raise the limit, or make the case smaller"
            )
            continue
        used = max(cpu for cpu in times if cpu is not None)
        result.costs.append(
            f"case {plan.case.name!r}: the reference takes {used:.3f} s of CPU time of its "
            f"limit of {limit:g} s"
        )
        if used > limit / SPEED_MARGIN:
            result.problems.append(
                f"cases.py: case {plan.case.name!r}: the reference takes {used:.3f} s of CPU "
                f"time, more than half its own limit (time_s={limit:g}): raise the limit, or "
                "make the case smaller"
            )
