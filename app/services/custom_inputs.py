"""A learner's own inputs answered by their code and the reference (``POST /exercises/{id}/try``).

A try is no submission: nothing is stored but throttle counts, and no case, public or hidden,
is read. Its cost is held to the limit runs have: at most ``submit_rate_per_minute`` tries a
minute per learner, counted in the throttle table (every process sees it) by one atomic upsert
that also tells whether the try is over the rate; in a process, one try at a time per learner
and half the sandbox pool in all (app/runtime/tries.py); and the exercise's time and memory
limits for each of the two calls, and an eighth of its memory limit for reading the inputs
(graders/custom/trying.py).

Its CPU counts against the learner's budget of tries, ``try_cpu_s_per_hour``: what both calls
took in the sandbox and what this thread took to read the inputs, compare the outputs and
draw the error's picture, in milliseconds in the throttle table. A try starts only while the
budget is not spent, so the learner's tries may pass it by one try (at most twice the
exercise's time limit and the reading) per process. Its memory is not a budget spent over
time but a bound at every moment: an eighth of the exercise's memory limit per try, one try
per learner and half the pool per process.
"""

from __future__ import annotations

import logging
import math
import time

from sqlalchemy.orm import Session

from app.models import User
from app.runtime.context import GradingRuntime
from app.runtime.tries import TriesBusy, TryRunning
from app.services import throttle
from app.services.errors import CustomInputsOff, TooManySubmissions
from app.services.exercises import load_visible
from app.services.submissions import check_code
from app.services.throttle import Rule, Scope, Throttled
from graders.api import TryOutputTooLarge, TryReport

logger = logging.getLogger(__name__)

WINDOW_S = 60
CPU_WINDOW_S = 3600


def try_rule(runtime: GradingRuntime) -> Rule | None:
    """The runs' rate (``submit_rate_per_minute``) as a throttle rule; None when off."""
    rate = runtime.settings.submit_rate_per_minute
    return Rule(Scope.CUSTOM_INPUTS, rate, WINDOW_S) if rate else None


def cpu_rule(runtime: GradingRuntime) -> Rule | None:
    """The tries' CPU budget (``try_cpu_s_per_hour``) as a throttle rule counting
    milliseconds; None when off."""
    budget_s = runtime.settings.try_cpu_s_per_hour
    return (
        Rule(Scope.CUSTOM_INPUTS_CPU, max(1, round(budget_s * 1000)), CPU_WINDOW_S)
        if budget_s
        else None
    )


def try_inputs(
    *,
    runtime: GradingRuntime,
    session: Session,
    user: User,
    exercise_id: str,
    code: str,
    inputs: dict[str, str],
) -> TryReport:
    """Raises ``ExerciseNotFound``, ``CustomInputsOff``, ``CodeRejected``,
    ``TooManySubmissions`` and, for inputs the engine does not read, ``CustomInputRefused``."""
    exercise = load_visible(runtime.catalog, exercise_id, user)
    if not exercise.takes_custom_inputs:
        why = (
            "its functions are called in scenarios"
            if exercise.custom_inputs
            else "its reference would give the answer away"
        )
        raise CustomInputsOff(f"Exercise {exercise_id!r} does not take custom inputs: {why}")
    check_code(code, runtime.settings.max_code_bytes)
    try:
        place = runtime.tries.claim(user.id)
    except TryRunning:
        raise TooManySubmissions(
            "You have a try of custom inputs running: send the next once it has answered",
            retry_after_s=1,
        ) from None
    except TriesBusy:
        raise TooManySubmissions(
            "The server is answering as many tries of custom inputs as it can: try again in "
            "a moment",
            retry_after_s=1,
        ) from None
    with place:
        rule = try_rule(runtime)
        if rule is not None:
            try:
                throttle.take(session=session, rule=rule, parts=(str(user.id),))
            except Throttled as exc:
                raise TooManySubmissions(
                    f"You tried custom inputs {rule.limit} times in the last minute (the limit "
                    f"is {rule.limit})",
                    retry_after_s=exc.retry_after_s,
                ) from None
            session.commit()
        budget = cpu_rule(runtime)
        if budget is not None:
            check_cpu_budget(session, budget, user)
        started, cpu_started = time.perf_counter(), time.thread_time()
        sandbox_cpu_s = 0.0
        try:
            report = runtime.try_inputs(runtime.catalog.prepared(exercise.id), code, inputs)
            sandbox_cpu_s = report.sandbox_cpu_s
        except TryOutputTooLarge as exc:  # its calls ran in the sandbox all the same
            sandbox_cpu_s = exc.sandbox_cpu_s
            raise
        finally:  # a refused input's reading took CPU too
            cpu_ms = math.ceil((time.thread_time() - cpu_started + sandbox_cpu_s) * 1000)
            if budget is not None:
                throttle.hit(session=session, rule=budget, parts=(str(user.id),), hits=cpu_ms)
                session.commit()
    logger.info(
        "custom inputs tried",
        extra={
            "slug": exercise.id,
            "user_id": user.id,
            "status": report.status.value,
            "elapsed_ms": round((time.perf_counter() - started) * 1000),
            "cpu_ms": cpu_ms,
        },
    )
    return report


def check_cpu_budget(session: Session, budget: Rule, user: User) -> None:
    """``TooManySubmissions`` once the learner's tries have taken the budget's CPU."""
    try:
        throttle.check(session=session, rule=budget, parts=(str(user.id),))
    except Throttled as exc:
        raise TooManySubmissions(
            f"Your tries of custom inputs have taken {budget.limit / 1000:g} s of CPU, as much "
            f"as they may take in {budget.window_s // 60} minutes: try again later",
            retry_after_s=exc.retry_after_s,
        ) from None
