"""Planning what a grading sends to the sandbox: each case's tasks (its call, a batched
case's slices, a speed case's further runs), in the order they are sent and with what waits
for the public ones; ``Audience`` says who reads the report."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from graders.checks.rules import (
    forbids_loops,
)
from graders.exercises import PreparedCase, PreparedExercise
from graders.sandbox.protocol import (
    BatchItem,
    Deferral,
    EncodedTasks,
    Task,
    encode_tasks,
)


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
                    item=BatchItem(number - 1, axes, case.batches_of_one),
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
