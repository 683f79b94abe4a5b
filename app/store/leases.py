"""The grading lease: which claimable row a worker takes next, in fair order, and the
compare-and-set updates that claim, finish, release and requeue it. The row is the truth: a
worker holds a submission only while its lease token and expiry say so.

The fairness policy, as the SQL below states it (tests/app/store/test_leases.py, a test a rule):

- a learner's own submission is claimable while that learner has fewer than ``max_running``
  of their own gradings in flight (a live lease); a regrade while fewer than ``max_regrades``
  regrades are in flight on every worker; a regrade takes no place of its learner's;
- the claim checks those limits again, and on PostgreSQL locks the learner's row first, so
  two workers cannot both take a learner's last place; a learner another worker is claiming
  at that moment is skipped, not waited for;
- a candidate list holds each learner's oldest claimable row only, so a list is never one
  learner's, lost whole when another machine claims that learner first;
- learners' own work comes before regrades; then the learner with the fewest in flight, then
  the learner served longest ago (never served first: round robin), then the oldest row;
- a lease holds up to its expiry, after which the row is claimable again and no longer in
  flight; a worker whose lease was lost can neither finish nor release the row, and a
  finished row is never claimed, finished or requeued again.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, Update, and_, bindparam, func, or_, select, update
from sqlalchemy.orm import Session

from app.models import Submission, SubmissionStatus, User, UTCDateTime, Worker
from app.store._dialect import aware

# The two updates every grading makes are built once with bound parameters: building an ORM
# update per call, with the report's JSON in its VALUES, cost more than running it.
# The mapped tables, typed as tables (``__table__`` is declared as a FromClause).
_submissions_table = cast(Table, Submission.__table__)
_submissions = _submissions_table.c
_running = Submission.__table__.alias("running")


def _claimable(now: Any) -> Any:
    return or_(
        _submissions.status == SubmissionStatus.QUEUED,
        and_(_submissions.status == SubmissionStatus.RUNNING, _submissions.lease_expires_at < now),
    )


def _live(now: Any) -> Any:
    return and_(_running.c.status == SubmissionStatus.RUNNING, _running.c.lease_expires_at >= now)


def _in_flight(user_id: Any, now: Any) -> Any:
    """How many of ``user_id``'s own gradings (not regrades) hold a live lease."""
    return (
        select(func.count())
        .select_from(_running)
        .where(_running.c.user_id == user_id, _running.c.regrade.is_(False), _live(now))
        .scalar_subquery()
    )


def _regrades_in_flight(now: Any) -> Any:
    """How many regrades hold a live lease, on every worker."""
    return (
        select(func.count())
        .select_from(_running)
        .where(_running.c.regrade.is_(True), _live(now))
        .scalar_subquery()
    )


def _has_room(user_id: Any, now: Any) -> Any:
    """A learner's own row while they have fewer than ``max_running`` in flight; a regrade
    while fewer than ``max_regrades`` regrades are (so most threads stay free for learners).
    Two workers may both take the last regrade slot: the cap is a share, not a lock."""
    return or_(
        and_(_submissions.regrade.is_(False), _in_flight(user_id, now) < bindparam("max_running")),
        and_(_submissions.regrade.is_(True), _regrades_in_flight(now) < bindparam("max_regrades")),
    )


_CLAIM = (
    update(_submissions_table)
    .where(
        _submissions.id == bindparam("claimed_id"),
        _claimable(bindparam("now")),
        _has_room(bindparam("claiming_user"), bindparam("now")),
    )
    .values(
        status=SubmissionStatus.RUNNING,
        attempts=_submissions.attempts + 1,
        worker=bindparam("claiming_worker"),
        lease_token=bindparam("new_lease_token"),
        lease_expires_at=bindparam("new_lease_expires_at"),
        started_at=bindparam("now"),
    )
    .returning(*_submissions)
)

_older = Submission.__table__.alias("older")
# One candidate per learner: the claim of a learner's newer row would be refused for the same
# reason as the oldest one's.
_first_of_learner = ~(
    select(_older.c.id)
    .where(
        _older.c.user_id == _submissions.user_id,
        _older.c.regrade == _submissions.regrade,
        or_(
            _older.c.status == SubmissionStatus.QUEUED,
            and_(
                _older.c.status == SubmissionStatus.RUNNING,
                _older.c.lease_expires_at < bindparam("now"),
            ),
        ),
        or_(
            _older.c.created_at < _submissions.created_at,
            and_(_older.c.created_at == _submissions.created_at, _older.c.id < _submissions.id),
        ),
    )
    .exists()
)
_last_started = (
    select(func.max(_running.c.started_at))
    .where(_running.c.user_id == _submissions.user_id)
    .scalar_subquery()
)
_in_flight_here = _in_flight(_submissions.user_id, bindparam("now"))
_users = User.__table__.c
_CANDIDATES = (
    select(_submissions.id, _submissions.user_id, _submissions.exercise_id, _users.name)
    .join(User.__table__, _users.id == _submissions.user_id)
    .where(
        _claimable(bindparam("now")),
        _has_room(_submissions.user_id, bindparam("now")),
        _first_of_learner,
    )
    # Learners' own work before regrades; then fewest in flight, then the learner served
    # longest ago (round robin), then age.
    .order_by(
        _submissions.regrade,
        _in_flight_here,
        _last_started.asc().nulls_first(),
        _submissions.created_at,
    )
    .limit(bindparam("candidates"))
)


@dataclass(frozen=True)
class Candidate:
    id: str
    user_id: int
    exercise_id: str
    user_name: str


def next_candidates(
    *, session: Session, now: datetime, max_running: int, max_regrades: int, limit: int = 8
) -> list[Candidate]:
    """Claimable submissions in fair order, each learner's oldest only, of learners below
    ``max_running`` in flight (regrades while fewer than ``max_regrades`` run)."""
    rows = session.execute(
        _CANDIDATES,
        {"now": now, "max_running": max_running, "max_regrades": max_regrades, "candidates": limit},
    ).all()
    return [Candidate(r[0], int(r[1]), r[2], r[3]) for r in rows]


def claim_submission(
    *,
    session: Session,
    candidate: Candidate,
    worker: str,
    lease_token: str,
    lease_expires_at: datetime,
    now: datetime,
    max_running: int,
    max_regrades: int,
) -> Submission | None:
    """Mark a queued (or expired running) row as running for this worker, if its learner
    still has fewer than ``max_running`` in flight; the claimed row, or None.

    On PostgreSQL the learner's row is locked first so two workers cannot both take the
    learner's last slot; a learner another worker is claiming right now is skipped rather
    than waited for (that claim will most likely take the slot). SQLite runs one writer at a
    time anyway.
    """
    if (
        session.get_bind().dialect.name == "postgresql"
        and session.execute(
            select(User.id).where(User.id == candidate.user_id).with_for_update(skip_locked=True)
        ).first()
        is None
    ):
        return None
    row = session.execute(
        _CLAIM,
        {
            "claimed_id": candidate.id,
            "now": now,
            "claiming_worker": worker,
            "new_lease_token": lease_token,
            "new_lease_expires_at": lease_expires_at,
            "claiming_user": candidate.user_id,
            "max_running": max_running,
            "max_regrades": max_regrades,
        },
    ).one_or_none()
    return _submission_from_row(row) if row is not None else None


def _submission_from_row(row: Any) -> Submission:
    """A detached ``Submission`` holding a ``RETURNING`` row's values."""
    values = dict(row._mapping)
    for column in Submission.__table__.c:
        if isinstance(column.type, UTCDateTime):
            value = values.get(column.key)
            values[column.key] = aware(value) if value is not None else None
    return Submission(**values)


@functools.cache
def _finish_statement(columns: tuple[str, ...], leased: bool) -> Update:
    condition = _submissions.status != SubmissionStatus.DONE
    if leased:
        condition = and_(condition, _submissions.lease_token == bindparam("held_lease_token"))
    return (
        update(_submissions_table)
        .where(_submissions.id == bindparam("finished_id"), condition)
        .values(
            status=SubmissionStatus.DONE,
            lease_expires_at=None,
            **{column: bindparam(f"new_{column}") for column in columns},
        )
        .returning(*_submissions)
    )


def finish_submission(
    *, session: Session, submission_id: str, lease_token: str | None, values: dict[str, Any]
) -> Submission | None:
    """Store a result if this lease still holds it (``lease_token=None``: unconditionally);
    the stored row, or None when the lease was lost."""
    statement = _finish_statement(tuple(sorted(values)), lease_token is not None)
    parameters = {f"new_{column}": value for column, value in values.items()}
    parameters["finished_id"] = submission_id
    if lease_token is not None:
        parameters["held_lease_token"] = lease_token
    row = session.execute(statement, parameters).one_or_none()
    return _submission_from_row(row) if row is not None else None


def release_submission(
    *, session: Session, submission_id: str, lease_token: str, lease_expires_at: datetime
) -> bool:
    """Give a running submission back to the queue (an engine fault, a shutdown)."""
    result = session.execute(
        update(Submission)
        .where(
            Submission.id == submission_id,
            Submission.lease_token == lease_token,
            Submission.status == SubmissionStatus.RUNNING,
        )
        .values(status=SubmissionStatus.QUEUED, lease_token=None, lease_expires_at=lease_expires_at)
        .execution_options(synchronize_session=False)
    )
    return bool(result.rowcount)  # type: ignore[attr-defined]


def extend_lease(
    *, session: Session, submission_id: str, lease_token: str, lease_expires_at: datetime
) -> bool:
    """Hold a running submission until ``lease_expires_at`` if this lease still holds it."""
    result = session.execute(
        update(Submission)
        .where(
            Submission.id == submission_id,
            Submission.lease_token == lease_token,
            Submission.status == SubmissionStatus.RUNNING,
        )
        .values(lease_expires_at=lease_expires_at)
        .execution_options(synchronize_session=False)
    )
    return bool(result.rowcount)  # type: ignore[attr-defined]


def unfinished_submissions(
    *, session: Session, expired_before: datetime | None = None, limit: int = 1000
) -> Sequence[Submission]:
    """Queued or running submissions (with a lease older than ``expired_before`` if given)."""
    query = select(Submission).where(
        Submission.status.in_([SubmissionStatus.QUEUED, SubmissionStatus.RUNNING])
    )
    if expired_before is not None:
        query = query.where(
            or_(Submission.lease_expires_at.is_(None), Submission.lease_expires_at < expired_before)
        )
    return session.scalars(query.order_by(Submission.created_at).limit(limit)).all()


def requeue_submission(
    *, session: Session, submission_id: str, seen_lease: datetime | None, lease_expires_at: datetime
) -> bool:
    """Put a stuck submission back in the queue, unless someone else just did (CAS)."""
    same_lease = (
        Submission.lease_expires_at.is_(None)
        if seen_lease is None
        else Submission.lease_expires_at == seen_lease
    )
    result = session.execute(
        update(Submission)
        .where(
            Submission.id == submission_id, same_lease, Submission.status != SubmissionStatus.DONE
        )
        .values(status=SubmissionStatus.QUEUED, lease_token=None, lease_expires_at=lease_expires_at)
        .execution_options(synchronize_session=False)
    )
    return bool(result.rowcount)  # type: ignore[attr-defined]


def silent_workers_running(*, session: Session, silent_since: datetime) -> Sequence[Submission]:
    """Running rows claimed before ``silent_since`` by a worker with no heartbeat since then
    (a killed worker's): their leases may still run for a while."""
    alive = select(Worker.id).where(Worker.heartbeat_at >= silent_since)
    return session.scalars(
        select(Submission).where(
            Submission.status == SubmissionStatus.RUNNING,
            Submission.started_at < silent_since,
            or_(Submission.worker.is_(None), Submission.worker.not_in(alive)),
        )
    ).all()


RECOVERY_LOCK = 0x6E6A7265  # any constant of this service's own: "njre"


def take_recovery_turn(*, session: Session) -> bool:
    """Whether this transaction may re-send rows now: on PostgreSQL one process at a time
    (an advisory lock held until the transaction ends), on SQLite always (one machine)."""
    if session.get_bind().dialect.name != "postgresql":
        return True
    return bool(session.scalar(select(func.pg_try_advisory_xact_lock(RECOVERY_LOCK))))


def mark_unsent(*, session: Session, submission_ids: Sequence[str], now: datetime) -> None:
    """Queued rows whose wake-up could not be sent: due for recovery's next pass."""
    session.execute(
        update(Submission)
        .where(Submission.id.in_(submission_ids), Submission.status == SubmissionStatus.QUEUED)
        .values(lease_expires_at=now)
        .execution_options(synchronize_session=False)
    )
