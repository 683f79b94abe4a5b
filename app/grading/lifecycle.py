"""A grading's life cycle: claim the fairest queued row, grade it, store the result.

The database row is the truth. A worker *claims* a row with a compare-and-set that also
gives it a lease (the exercise's time limit plus a margin); it stores the report only if it
still holds that lease. The queue's messages only wake workers: each takes the queued row of
the learner with the fewest gradings in flight (at most ``max_running_per_learner``), the one
served longest ago first, so one learner's flood delays only that learner. While the
database is down a worker waits (exponential back-off) instead of dropping work.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.orm import Session

from app.models import Submission, SubmissionKind, SubmissionStatus, utcnow
from app.runtime import rungs
from app.runtime.context import GradingRuntime, Lane, worker_id
from app.runtime.engine import background_priority
from app.services import error_pictures, release, views
from app.services.lti import passback
from app.services.submissions import log_event
from app.store import leases as lease_store
from app.store import pictures as picture_store
from app.store import regrades as regrade_store
from graders.api import CpuPriority, Exercise, ExerciseError, ExerciseNotFound, GradeReport, Verdict

logger = logging.getLogger(__name__)

T = TypeVar("T")

WAKE_ANOTHER = "more"
"""The id a wake-up for rows left behind carries (a message's id is only logged)."""


class Stopping(Exception):
    """The process is stopping while the database is down: leave the work to recovery."""


def with_database(runtime: GradingRuntime, step: Callable[[], T]) -> T:
    """Run ``step``, retrying with back-off while the database cannot be reached."""
    while True:
        try:
            result = step()
        except (OperationalError, InterfaceError) as exc:
            if runtime.stopping.is_set():
                raise Stopping from exc
            runtime.database_outage.failed(runtime.stopping, "database.unavailable", exc)
            continue
        runtime.database_outage.succeeded("database.available")
        return result


def work(runtime: GradingRuntime, submission_id: str) -> None:
    """A queue message's body: grade queued rows, fairest first, until none can be claimed.

    ``submission_id`` (the row that caused the message) is only logged: any claimable row is
    as good, and a learner at their limit is served when their running grading ends.
    """
    logger.debug("queue.wake", extra={"submission_id": submission_id})
    try:
        while not runtime.stopping.is_set():
            claimed = with_database(runtime, lambda: _claim_next(runtime))
            if claimed is None:
                return
            lane = Lane.REGRADES if claimed.submission.regrade else Lane.LEARNERS
            try:
                _grade_claimed(runtime, claimed)
            finally:
                runtime.lanes.release(lane)
    except Stopping:
        logger.info("grading.stopped", extra={"reason": "database down while stopping"})


@dataclass(frozen=True)
class Claimed:
    """A row this worker holds the lease of."""

    submission: Submission
    user_name: str
    lease_token: str
    started: float
    exercise: Exercise | None
    """The exercise as read for the lease, graded without reading its folder again; None if
    it could not be read (grading then says why)."""
    start: datetime
    """What its release is counted from (app.services.release.release_at): its acceptance,
    or a regrade's turn (:func:`_regrade_turn`)."""


def _load(runtime: GradingRuntime, exercise_id: str) -> Exercise | None:
    try:
        return runtime.catalog.load(exercise_id)
    except ExerciseError:
        return None


def _claim_next(runtime: GradingRuntime) -> Claimed | None:
    """Claim the fairest claimable row of a lane with a free place. The lane's place is this
    thread's until it releases it."""
    with runtime.lanes.claiming:
        free = runtime.lanes.free()
        claimed = _claim_in(runtime, learners=Lane.LEARNERS in free, regrades=Lane.REGRADES in free)
        if claimed is not None:
            runtime.lanes.take(Lane.REGRADES if claimed.submission.regrade else Lane.LEARNERS)
        return claimed


CLAIM_ROUNDS = 5
"""Candidate lists a thread tries before it lets its wake-up go: a list lost whole to other
machines means they took those learners, and a fresh list holds the others."""


def _claim_in(runtime: GradingRuntime, *, learners: bool, regrades: bool) -> Claimed | None:
    # A lane with no free place takes nothing: its cap is zero for this claim.
    max_running = runtime.settings.max_running_per_learner if learners else 0
    max_regrades = runtime.settings.max_running_regrades if regrades else 0
    if not max_running and not max_regrades:
        return None
    with runtime.sessions() as session:
        for _ in range(CLAIM_ROUNDS):
            candidates = lease_store.next_candidates(
                session=session, now=utcnow(), max_running=max_running, max_regrades=max_regrades
            )
            session.rollback()  # end the read: SQLite refuses to upgrade a stale snapshot
            if not candidates:
                return None
            for index, candidate in enumerate(candidates):
                started, now = time.perf_counter(), utcnow()
                lease_token = uuid.uuid4().hex
                exercise = _load(runtime, candidate.exercise_id)
                # A grading may take up to its wall-clock ceiling: a host busy enough to
                # starve it must not also make another worker take it over.
                limit = (
                    runtime.settings.sandbox_limits.with_exercise_limits(
                        exercise.limits.time_s, exercise.limits.memory_mb
                    ).starved_wall_s
                    if exercise is not None
                    else 0.0
                )
                lease = timedelta(seconds=limit + runtime.settings.lease_margin_s)
                claimed = lease_store.claim_submission(
                    session=session,
                    candidate=candidate,
                    worker=worker_id(),
                    lease_token=lease_token,
                    lease_expires_at=now + lease,
                    now=now,
                    max_running=max_running,
                    max_regrades=max_regrades,
                )
                session.commit()
                if claimed is not None:
                    if index + 1 < len(candidates):
                        _wake_another(runtime)
                    start = (
                        _regrade_turn(runtime, session, claimed)
                        if claimed.regrade
                        else claimed.created_at
                    )
                    return Claimed(
                        claimed, candidate.user_name, lease_token, started, exercise, start
                    )
    _wake_another(runtime)  # rows were there all along: someone must come back for them
    return None


def _regrade_turn(runtime: GradingRuntime, session: Session, claimed: Submission) -> datetime:
    """When a regrade's turn came: the later of its queueing and the last release of a
    regrade here (a regrade thread holds its place until its result is released).

    Not the claim: a regrade is claimed only while no learner's grading runs in this process,
    so the claim can follow the end of a learner's grading, whose length a hidden input
    chooses; from the turn, that wait is inside the quantised span, as a first grading's time
    in the queue is.
    """
    queued = regrade_store.queued_at(session=session, submission_id=claimed.id)
    session.rollback()
    return max(queued or claimed.created_at, runtime.lanes.regrades_freed_at)


def _wake_another(runtime: GradingRuntime) -> None:
    """Send a wake-up for claimable rows this thread leaves behind, unless one already waits:
    an idle thread on any machine then takes them instead of waiting for the next
    submission or recovery's re-send. A queue that is down costs nothing here: recovery
    re-sends once it is back."""
    try:
        if runtime.queue.pending() == 0:
            runtime.queue.enqueue(WAKE_ANOTHER)
    except Exception:  # any error of the storage: the queue is down
        logger.debug("queue.wake_not_sent")


def _grade_claimed(runtime: GradingRuntime, claimed: Claimed) -> None:
    submission, user_name = claimed.submission, claimed.user_name
    lease_token, started = claimed.lease_token, claimed.started
    settings = runtime.settings
    log_event(
        logger,
        "submission.running",
        submission,
        attempt=submission.attempts,
        worker=submission.worker,
    )

    def not_graded(message: str) -> None:
        _finish(
            runtime,
            submission,
            user_name,
            lease_token,
            exercise=claimed.exercise,
            verdict=Verdict.ERROR,
            started=started,
            start=claimed.start,
            message=message,
        )

    if submission.attempts > settings.max_attempts:
        not_graded(
            f"Grading was tried {settings.max_attempts} times and the grader "
            "failed each time; this is not a fault of your code. Submit again; "
            "if it happens again, tell your instructor."
        )
        return
    try:
        prepared = (
            # The learner's numbers it was made with, on every regrade too.
            runtime.catalog.prepare(claimed.exercise, submission.variant)
            if claimed.exercise is not None
            else runtime.catalog.prepared(submission.exercise_id, submission.variant)
        )
    except ExerciseNotFound:
        not_graded(f"Exercise {submission.exercise_id!r} no longer exists.")
        return
    except ExerciseError as exc:
        logger.exception("exercise.broken", extra={"exercise": submission.exercise_id})
        not_graded(f"Exercise {submission.exercise_id!r} is broken; tell your instructor: {exc}")
        return
    try:
        # The rung is fixed before this learner's code runs: it never depends on their run.
        runtime.first_rungs.measure(prepared)
        report = runtime.grade(
            prepared,
            submission.code,
            submission.kind is SubmissionKind.RUN,
            background_priority(runtime.settings) if submission.regrade else CpuPriority.NORMAL,
        )
    except Exception as exc:  # an engine fault, never the learner's code: grade it again
        logger.exception(
            "submission.engine_fault",
            extra={"submission_id": submission.id, "error": type(exc).__name__},
        )
        _retry_later(runtime, submission, lease_token)
        return
    _finish(
        runtime,
        submission,
        user_name,
        lease_token,
        exercise=claimed.exercise,
        verdict=report.verdict,
        message=report.message,
        report=report,
        started=started,
        start=claimed.start,
    )


def _longest(runtime: GradingRuntime, exercise: Exercise | None) -> timedelta:
    """The longest a submission's code can make its grading last: the exercise's wall-clock
    backstop (the service's default limits' if it could not be read)."""
    limits = runtime.settings.sandbox_limits
    if exercise is not None:
        limits = limits.with_exercise_limits(exercise.limits.time_s, exercise.limits.memory_mb)
    return timedelta(seconds=limits.wall_s)


def _finish(
    runtime: GradingRuntime,
    submission: Submission,
    user_name: str,
    lease_token: str,
    *,
    exercise: Exercise | None,
    verdict: Verdict,
    started: float,
    start: datetime,
    message: str = "",
    report: GradeReport | None = None,
) -> None:
    finished_at = utcnow()
    values: dict[str, Any] = {"verdict": verdict, "message": message, "finished_at": finished_at}
    first = runtime.first_rungs.known(exercise.version) if exercise else rungs.FIRST_STEP
    released_at = release.release_at(start, finished_at, _longest(runtime, exercise), first)
    # Drawn here, once, in this grading's place: never by a page view (the module's doc); and
    # before a regrade waits for its boundary, so that the drawing does not delay the store.
    drawn = error_pictures.render(report.tests) if report is not None else {}
    if submission.regrade:
        # The row shows its earlier result, with its first release's times, until it is
        # stored at the boundary: every learner's view reads the row.
        if not _hold_until(runtime, submission, lease_token, released_at):
            return
    else:
        # The worker does not wait for the boundary: the row says when it may be shown.
        values["released_at"] = released_at
    if report is not None:
        values.update(
            score=report.score,
            max_score=report.max_score,
            tests=[t.to_dict() for t in report.tests],
            hidden_messages=dict(report.hidden_messages) or None,
            output=report.output,
            diagnosis=report.diagnosis.to_dict() if report.diagnosis else None,
            duration_ms=report.duration_ms,
            exercise_version=report.version,
            cpu_ms=report.cost.cpu_ms if report.cost else None,
            memory_kb=report.cost.memory_kb if report.cost else None,
        )
    else:
        values.update(
            score=0.0,
            tests=[],
            hidden_messages=None,
            duration_ms=0,
            diagnosis=None,
            cpu_ms=None,
            memory_kb=None,
        )

    def store() -> Submission | None:
        with runtime.sessions() as session:
            row = lease_store.finish_submission(
                session=session, submission_id=submission.id, lease_token=lease_token, values=values
            )
            if row is not None:
                picture_store.replace_pictures(
                    session=session, submission_id=submission.id, svgs=drawn
                )
            session.commit()
            return row

    stored = with_database(runtime, store)
    if stored is None:
        log_event(logger, "submission.result_dropped", submission, reason="lease lost")
        return
    if stored.kind is not SubmissionKind.RUN:
        # The LMS learns the score when the learner's page shows it, not before.
        passback.request(
            runtime, user_id=stored.user_id, exercise_ids=[stored.exercise_id], at=released_at
        )
    # Logged before a waiting learner is answered: whoever holds a result finds its line in
    # the log (the answer could otherwise go out while this thread waits for a core).
    log_event(
        logger,
        "submission.done",
        stored,
        version=stored.exercise_version,
        verdict=verdict.value,
        score=stored.score,
        max_score=stored.max_score,
        grade_ms=stored.duration_ms,
        elapsed_ms=round((time.perf_counter() - started) * 1000, 1),
    )
    runtime.waiters.notify(
        stored.id,
        views.submission_out(stored, user_name=user_name, now=released_at),
        at=released_at,
    )


def _hold_until(
    runtime: GradingRuntime, submission: Submission, lease_token: str, released_at: datetime
) -> bool:
    """Hold a regrade's row and this thread's regrade place until ``released_at``, so the
    next regrade's turn starts at this boundary; False if the result must not be stored (the
    lease was lost, or the process stops first: the regrade is then queued again)."""
    lease_expires_at = released_at + timedelta(seconds=runtime.settings.lease_margin_s)

    def extend() -> bool:
        with runtime.sessions() as session:
            extended = lease_store.extend_lease(
                session=session,
                submission_id=submission.id,
                lease_token=lease_token,
                lease_expires_at=lease_expires_at,
            )
            session.commit()
            return extended

    if not with_database(runtime, extend):
        log_event(logger, "submission.result_dropped", submission, reason="lease lost")
        return False
    if runtime.stopping.wait(max(0.0, (released_at - utcnow()).total_seconds())):
        _retry_later(runtime, submission, lease_token, reason="stopping")
        return False
    return True


def _retry_later(
    runtime: GradingRuntime, submission: Submission, lease_token: str, reason: str = "engine fault"
) -> None:
    def release() -> bool:
        with runtime.sessions() as session:
            released = lease_store.release_submission(
                session=session,
                submission_id=submission.id,
                lease_token=lease_token,
                lease_expires_at=utcnow() + timedelta(seconds=runtime.settings.queue_lease_s),
            )
            session.commit()
            return released

    if with_database(runtime, release):
        # The loop in ``work`` claims it again (or another learner's row first, if fairer).
        log_event(
            logger,
            "submission.requeued",
            submission,
            reason=reason,
            status=SubmissionStatus.QUEUED.value,
        )
