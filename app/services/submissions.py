"""Accepting a submission (limits, idempotency, store, enqueue) and long-polling its result."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from datetime import timedelta
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from app.models import Submission, SubmissionKind, SubmissionStatus, User, new_id, utcnow
from app.runtime.context import GradingRuntime
from app.runtime.queue import QueueUnavailable
from app.runtime.waiters import Waiter
from app.schemas import SubmissionOut
from app.services import budgets, release, variants, views
from app.services.auth import Credentials, resolve_user
from app.services.errors import (
    BudgetSpent,
    CodeRejected,
    CodeTooLarge,
    IdempotencyConflict,
    NotFound,
    SubmissionPaced,
    TooManySubmissions,
)
from app.services.exercises import load_visible
from app.services.standings import marks
from app.services.standings.marks import AssignmentMark
from app.services.wording import N_, Wording
from app.store import accounts as account_store
from app.store import leases as lease_store
from app.store import submissions as submission_store
from graders.api import ExerciseCatalog, ExerciseError

logger = logging.getLogger(__name__)

RATE_WINDOW = timedelta(minutes=1)


def log_event(log: logging.Logger, name: str, submission: Submission, **fields: Any) -> None:
    """One line in ``log`` per state change of a submission (never its code)."""
    extra: dict[str, Any] = {
        "submission_id": submission.id,
        "exercise": submission.exercise_id,
        "user_id": submission.user_id,
        "kind": submission.kind.value,
    }
    extra.update(fields)
    log.info(name, extra=extra)


def check_code(code: str, max_bytes: int) -> None:
    size = len(code.encode("utf-8"))
    if size > max_bytes:
        raise CodeTooLarge(f"Code is {size} bytes; the limit is {max_bytes} bytes")
    if not code.strip():
        raise CodeRejected("Code is empty")


def check_load(runtime: GradingRuntime, session: Session, user: User, time_limit_s: float) -> None:
    """Refuse a learner over the waiting or rate limit, saying when to try again."""
    settings = runtime.settings
    now = utcnow()
    rate = settings.submit_rate_per_minute
    load = submission_store.learner_load(
        session=session, user_id=user.id, now=now, since=now - RATE_WINDOW if rate else None
    )
    if load.waiting >= settings.max_waiting_per_learner:
        # A slot frees when one of the learner's gradings ends: at most the time limit.
        raise TooManySubmissions(
            f"You have {load.waiting} submissions waiting to be graded (the limit is "
            f"{settings.max_waiting_per_learner}); wait for their results",
            retry_after_s=max(1, math.ceil(time_limit_s)),
        )
    if rate and load.recent >= rate and load.oldest_recent_at is not None:
        free_at = load.oldest_recent_at + RATE_WINDOW
        raise TooManySubmissions(
            f"You sent {load.recent} submissions in the last minute (the limit is {rate})",
            retry_after_s=max(1, math.ceil((free_at - now).total_seconds())),
        )


def check_budget(runtime: GradingRuntime, session: Session, user: User, exercise_id: str) -> None:
    """Refuse a learner's graded submission the schedule's bounds do not allow now
    (app.services.budgets): the total once used (final), the day's count or the cooldown
    (until they pass). The learner is locked first, until the new submission is committed:
    two sent at once cannot both take the last place, nor both pass one cooldown."""
    if budgets.limits_apply(runtime.catalog, user, exercise_id):
        account_store.lock_user(session=session, user_id=user.id)
    now = utcnow()
    budget = budgets.submission_budget(
        session=session, catalog=runtime.catalog, user=user, exercise_id=exercise_id, now=now
    )
    blocked = budget.blocked_by if budget is not None else None
    if budget is None or blocked is None:
        return
    if blocked is budgets.Limit.TOTAL:
        raise BudgetSpent(
            Wording(
                N_(
                    "You have used all {allowed} graded submissions the schedule allows for "
                    "{exercise}; /run still tries code on the public cases"
                ),
                {"allowed": budget.allowed, "exercise": repr(exercise_id)},
            )
        )
    assert budget.next_at is not None
    zone = runtime.catalog.schedule().zone
    wait_s = max(1, math.ceil((budget.next_at - now).total_seconds()))
    when = {
        "exercise": repr(exercise_id),
        "next_at": f"{budget.next_at.astimezone(zone):%Y-%m-%d %H:%M %Z}",
        "wait_s": wait_s,
    }
    if blocked is budgets.Limit.PER_DAY:
        wording = Wording(
            N_(
                "You have used the {per_day} graded submissions the schedule allows per day for "
                "{exercise}; the next is possible at {next_at} (in {wait_s} s); /run still "
                "tries code on the public cases"
            ),
            {**when, "per_day": budget.per_day},
        )
    else:
        assert budget.cooldown is not None
        wording = Wording(
            N_(
                "The schedule asks for {minutes} minutes between graded submissions to "
                "{exercise}; the next is possible at {next_at} (in {wait_s} s); /run still "
                "tries code on the public cases"
            ),
            {**when, "minutes": f"{budget.cooldown.total_seconds() / 60:g}"},
        )
    raise SubmissionPaced(wording, retry_after_s=wait_s, limit=blocked)


def _variant(
    runtime: GradingRuntime, session: Session, user: User, exercise_id: str
) -> dict[str, float] | None:
    """The learner's numbers the submission is graded with, chosen here and never by the
    request (app.services.variants); None for an exercise without variants, or one whose
    cases do not prepare now (its grading says so, or grades against its last good version
    with the default numbers)."""
    try:
        variant = variants.learner_variant(
            session=session, catalog=runtime.catalog, user=user, exercise_id=exercise_id
        )
    except ExerciseError:
        return None
    return variant or None


def accept(
    *,
    runtime: GradingRuntime,
    credentials: Credentials,
    exercise_id: str,
    code: str,
    kind: SubmissionKind,
    submission_id: str | None = None,
    idempotency_key: str | None = None,
) -> tuple[SubmissionOut, AssignmentMark | None]:
    """Authenticate, check, store and enqueue (blocking: call from a worker thread); the
    answer, and what its assignment makes of the submission (``assignment_mark``).

    Once the row is committed the answer is the submission, whatever the queue does: a
    wake-up that cannot be sent is left to recovery. A known ``idempotency_key`` of the same
    user answers the submission it made.
    """
    with runtime.sessions() as session:
        user = resolve_user(session=session, credentials=credentials)
        assert user is not None
        check_code(code, runtime.settings.max_code_bytes)
        # ExerciseNotFound -> 404, for drafts and unopened assignments too
        exercise = load_visible(runtime.catalog, exercise_id, user)
        if idempotency_key is not None:
            earlier = _earlier(session, user, idempotency_key, exercise_id, code, kind)
            if earlier is not None:
                return _answer(session, runtime.catalog, earlier)
        check_load(runtime, session, user, exercise.limits.time_s)
        if kind is SubmissionKind.SUBMIT:
            check_budget(runtime, session, user, exercise.id)
        # The version it will be graded against: after an edit that does not prepare, the
        # last good one (the report's version is stored once graded, and logged as done).
        version = runtime.catalog.served_version(exercise)
        submission = submission_store.create_submission(
            variant=_variant(runtime, session, user, exercise.id),
            session=session,
            user=user,
            exercise_id=exercise.id,
            exercise_version=version,
            code=code,
            kind=kind,
            submission_id=submission_id,
            idempotency_key=idempotency_key,
            lease_expires_at=utcnow() + timedelta(seconds=runtime.settings.queue_lease_s),
        )
        try:
            session.commit()
        except IntegrityError:  # the same key, sent twice at once: the other one won
            session.rollback()
            assert idempotency_key is not None
            earlier = _earlier(session, user, idempotency_key, exercise_id, code, kind)
            if earlier is None:
                raise
            return _answer(session, runtime.catalog, earlier)
        log_event(logger, "submission.queued", submission, version=version, code_bytes=len(code))
        try:
            runtime.queue.enqueue(submission.id)
        except QueueUnavailable as exc:
            lease_store.mark_unsent(session=session, submission_ids=[submission.id], now=utcnow())
            session.commit()
            log_event(
                logger,
                "submission.unsent",
                submission,
                error=str(exc)[:200],
                hint="recovery sends it when the queue is back",
            )
        return views.submission_out(submission, user_name=user.name), assignment_mark_of(
            session, runtime.catalog, submission
        )


def assignment_mark_of(
    session: Session, catalog: ExerciseCatalog, submission: Submission
) -> AssignmentMark | None:
    """What its assignment makes of the submission; None for a run (never counted)."""
    if submission.kind is not SubmissionKind.SUBMIT:
        return None
    return marks.assignment_mark(
        session=session,
        schedule=catalog.schedule(),
        user_id=submission.user_id,
        exercise_id=submission.exercise_id,
        submitted_at=submission.created_at,
    )


def answer(session: Session, catalog: ExerciseCatalog, submission: Submission) -> SubmissionOut:
    """``GET /submissions/{id}``: the result as its reader may see it, with its assignment mark."""
    return views.credited(*_answer(session, catalog, submission))


def _answer(
    session: Session, catalog: ExerciseCatalog, submission: Submission
) -> tuple[SubmissionOut, AssignmentMark | None]:
    return views.submission_out(submission), assignment_mark_of(session, catalog, submission)


def _earlier(
    session: Session, user: User, key: str, exercise_id: str, code: str, kind: SubmissionKind
) -> Submission | None:
    row = submission_store.get_submission_by_idempotency_key(
        session=session, user_id=user.id, key=key
    )
    if row is None:
        return None
    if (row.exercise_id, row.code, row.kind) != (exercise_id, code, kind):
        raise IdempotencyConflict(
            f"Idempotency-Key {key!r} was used for another submission "
            f"({row.id}); use a new key for new code"
        )
    return row


def load_out(runtime: GradingRuntime, submission_id: str) -> SubmissionOut:
    with runtime.sessions() as session:
        submission = submission_store.get_submission(
            session=session, submission_id=submission_id, with_user=True
        )
        if submission is None:
            raise NotFound(f"Submission {submission_id!r} not found")
        return views.submission_out(submission)


def refresh_out(runtime: GradingRuntime, result: SubmissionOut) -> SubmissionOut:
    """``result`` as a learner may see it now: the whole row is read only once its result is
    released, until then the learner's view of it does not change."""
    with runtime.sessions() as session:
        progress = submission_store.submission_progress(session=session, submission_id=result.id)
    if progress is None:
        raise NotFound(f"Submission {result.id!r} not found")
    status, released_at = progress
    if status is SubmissionStatus.DONE and release.released_by(released_at, utcnow()):
        return load_out(runtime, result.id)
    return result


async def wait_for_result(
    runtime: GradingRuntime, result: SubmissionOut, wait_s: float, waiter: Waiter
) -> SubmissionOut:
    """Hold until the result is final or ``wait_s`` passed, without holding a thread.

    A grader in this process hands over the stored result with the wake-up at its release;
    graders elsewhere are seen by a database poll every ``wait_poll_s``.
    """
    deadline = time.monotonic() + min(wait_s, runtime.settings.max_wait_s)
    while result.status != SubmissionStatus.DONE.value:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            break
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(
                waiter.event.wait(), timeout=min(remaining, runtime.settings.wait_poll_s)
            )
        if waiter.result is not None:
            return waiter.result
        waiter.event.clear()
        result = await run_in_threadpool(refresh_out, runtime, result)
    return result


async def accept_and_wait(
    *,
    runtime: GradingRuntime,
    credentials: Credentials,
    exercise_id: str,
    code: str,
    kind: SubmissionKind,
    wait_s: float,
    idempotency_key: str | None = None,
) -> SubmissionOut:
    """Accept, then long-poll; the waiter is registered before the grading can finish. The
    answer carries its assignment's mark (late or not, the points it is worth), fixed when the
    submission was made, with its points from the result the answer holds."""
    submission_id = new_id()
    waiter = runtime.waiters.register(submission_id) if wait_s > 0 else None
    try:
        result, mark = await run_in_threadpool(
            lambda: accept(
                runtime=runtime,
                credentials=credentials,
                exercise_id=exercise_id,
                code=code,
                kind=kind,
                submission_id=submission_id,
                idempotency_key=idempotency_key,
            )
        )
        if waiter is not None and result.id != submission_id:  # an earlier one, by its key
            runtime.waiters.unregister(submission_id, waiter)
            waiter = runtime.waiters.register(result.id)
            submission_id = result.id
        if waiter is not None:
            result = await wait_for_result(runtime, result, wait_s, waiter)
    finally:
        if waiter is not None:
            runtime.waiters.unregister(submission_id, waiter)
    return views.credited(result, mark)
