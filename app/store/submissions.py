"""Submissions: storing one, reading it back, its learner's load (the limits on sending), and
the graded work the gradebook, the late policy and the class analytics count."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Select, and_, bindparam, func, literal, or_, select
from sqlalchemy.orm import Session, joinedload

from app.models import (
    EarlierReport,
    Role,
    Submission,
    SubmissionKind,
    SubmissionStatus,
    User,
    UTCDateTime,
    new_id,
    utcnow,
)
from app.store._dialect import aware


def create_submission(
    *,
    session: Session,
    user: User,
    exercise_id: str,
    exercise_version: str,
    code: str,
    kind: SubmissionKind,
    lease_expires_at: datetime,
    submission_id: str | None = None,
    idempotency_key: str | None = None,
    variant: dict[str, float] | None = None,
) -> Submission:
    submission = Submission(
        id=submission_id or new_id(),
        user_id=user.id,
        exercise_id=exercise_id,
        exercise_version=exercise_version,
        code=code,
        kind=kind,
        status=SubmissionStatus.QUEUED,
        lease_expires_at=lease_expires_at,
        output="",
        message="",
        attempts=0,
        idempotency_key=idempotency_key,
        variant=variant,
    )
    session.add(submission)
    session.flush()
    return submission


def get_submission_by_idempotency_key(
    *, session: Session, user_id: int, key: str
) -> Submission | None:
    return session.scalars(
        select(Submission)
        .options(joinedload(Submission.user))
        .where(Submission.user_id == user_id, Submission.idempotency_key == key)
    ).one_or_none()


@dataclass(frozen=True)
class LearnerLoad:
    """What one learner has in the system now (the fairness limits)."""

    waiting: int
    recent: int  # created since the ``since`` asked for (0 when not asked)
    oldest_recent_at: datetime | None  # the oldest of those


# A regrade waits in nobody's quota: the learner did not ask for it. A submission waits until
# its result is released (app.services.release): counting only queued rows would free a place
# at the exact moment an earlier grading ended, and a learner probing for that place would read
# the time the release hides.
_OWN_QUEUED = and_(
    Submission.regrade.is_(False),
    or_(
        Submission.status != SubmissionStatus.DONE,
        Submission.released_at > bindparam("now", type_=UTCDateTime()),
    ),
)
_RECENT = Submission.created_at >= bindparam("since")
# Built once: each submission checks its learner's load, and building the query cost more
# than running it.
_WAITING = select(func.count().filter(_OWN_QUEUED)).where(
    Submission.user_id == bindparam("load_user_id"), _OWN_QUEUED
)
_WAITING_AND_RECENT = select(
    func.count().filter(_OWN_QUEUED),
    func.count().filter(_RECENT),
    func.min(Submission.created_at).filter(_RECENT),
).where(Submission.user_id == bindparam("load_user_id"), or_(_OWN_QUEUED, _RECENT))


def learner_load(
    *, session: Session, user_id: int, now: datetime, since: datetime | None
) -> LearnerLoad:
    """The learner's submissions whose result is not released at ``now`` and, if ``since`` is
    given, those created since."""
    if since is None:
        count = session.scalar(_WAITING, {"load_user_id": user_id, "now": now})
        return LearnerLoad(waiting=int(count or 0), recent=0, oldest_recent_at=None)
    row = session.execute(
        _WAITING_AND_RECENT, {"load_user_id": user_id, "now": now, "since": since}
    ).one()
    return LearnerLoad(
        waiting=int(row[0] or 0),
        recent=int(row[1] or 0),
        oldest_recent_at=aware(row[2]) if row[2] is not None else None,
    )


def get_submission(
    *, session: Session, submission_id: str, with_user: bool = False
) -> Submission | None:
    """The submission (and its user in the same query with ``with_user``)."""
    options = (joinedload(Submission.user),) if with_user else ()
    return session.get(Submission, submission_id, options=options)


def get_submissions(*, session: Session, submission_ids: Sequence[str]) -> dict[str, Submission]:
    """The submissions (with their users) by id; unknown ids are left out."""
    query = (
        select(Submission)
        .options(joinedload(Submission.user))
        .where(Submission.id.in_(submission_ids))
    )
    return {submission.id: submission for submission in session.scalars(query)}


# Built once, on the table's columns: building the query cost more than running it.
_columns = Submission.__table__.c
_PROGRESS = select(_columns.status, _columns.released_at).where(
    _columns.id == bindparam("polled_id")
)


def submission_progress(
    *, session: Session, submission_id: str
) -> tuple[SubmissionStatus, datetime | None] | None:
    """A submission's status and release time: enough to tell whether a learner may see its
    result yet, for a fraction of loading the row (a long-poll asks several times a second)."""
    row = session.execute(_PROGRESS, {"polled_id": submission_id}).one_or_none()
    if row is None:
        return None
    return row[0], aware(row[1]) if row[1] is not None else None


def list_submissions(
    *,
    session: Session,
    user_id: int | None = None,
    exercise_id: str | None = None,
    exercise_ids: Sequence[str] | None = None,
    kind: SubmissionKind | None = None,
    limit: int = 50,
) -> Sequence[Submission]:
    """Newest first; filter by user, exercise (or any of ``exercise_ids``) and kind
    (``None``: any)."""
    query = select(Submission)
    if user_id is not None:
        query = query.where(Submission.user_id == user_id)
    if exercise_id is not None:
        query = query.where(Submission.exercise_id == exercise_id)
    if exercise_ids is not None:
        query = query.where(Submission.exercise_id.in_(exercise_ids))
    if kind is not None:
        query = query.where(Submission.kind == kind)
    query = query.order_by(Submission.created_at.desc(), Submission.id.desc())
    return session.scalars(query.limit(limit)).all()


def _has_result() -> Any:
    """Graded and released (app.services.release: a learner sees no result before, and
    neither do the scores built from it), or queued again for a regrade and still holding its
    earlier result."""
    released = and_(
        Submission.status == SubmissionStatus.DONE,
        # None: graded before results had a release time, and shown at once
        or_(
            Submission.released_at.is_(None),
            Submission.released_at <= literal(utcnow(), UTCDateTime()),
        ),
    )
    return or_(released, Submission.regrade.is_(True))


def _graded(exercise_ids: Sequence[str], role: Role | None, *columns: Any) -> Select[Any]:
    """``(user_id, exercise_id, created_at, *columns)`` of every graded submission (not a run)
    to the exercises, oldest first; only users of ``role`` if given."""
    query = (
        select(Submission.user_id, Submission.exercise_id, Submission.created_at, *columns)
        .join(User, User.id == Submission.user_id)
        .where(
            Submission.exercise_id.in_(exercise_ids),
            Submission.kind == SubmissionKind.SUBMIT,
            _has_result(),
            Submission.max_score > 0,
        )
        .order_by(Submission.created_at)
    )
    return query if role is None else query.where(User.role == role)


@dataclass(frozen=True)
class GradedAttempt:
    """One graded submission, as the standings need it (app/services/standings)."""

    user_id: int
    user_name: str
    exercise_id: str
    score: float
    max_score: float
    created_at: datetime
    submission_id: str = ""  # to load the whole row (an archive of the counted work)
    exercise_version: str = ""  # the version that graded ``score`` of ``max_score``
    regrading: bool = False  # queued again for a regrade, still holding the result above
    earlier: tuple[float, float] | None = None  # score and maximum before its latest regrade


def graded_attempts(
    *,
    session: Session,
    exercise_ids: Sequence[str],
    user_id: int | None = None,
    role: Role | None = None,
) -> list[GradedAttempt]:
    """Every graded submission (not run) to the exercises, oldest first, each with the report
    its latest regrade replaced (if any)."""
    latest = (
        select(EarlierReport.submission_id, func.max(EarlierReport.id).label("report_id"))
        .group_by(EarlierReport.submission_id)
        .subquery()
    )
    query = (
        _graded(
            exercise_ids,
            role,
            User.name,
            Submission.score,
            Submission.max_score,
            Submission.id,
            Submission.exercise_version,
            Submission.regrade,
            EarlierReport.score,
            EarlierReport.max_score,
        )
        .outerjoin(latest, latest.c.submission_id == Submission.id)
        .outerjoin(EarlierReport, EarlierReport.id == latest.c.report_id)
    )
    if user_id is not None:
        query = query.where(Submission.user_id == user_id)
    return [
        GradedAttempt(
            row[0],
            row[3],
            row[1],
            float(row[4] or 0),
            float(row[5] or 0),
            aware(row[2]),
            row[6],
            row[7],
            bool(row[8]),
            None if row[10] is None else (float(row[9] or 0), float(row[10])),
        )
        for row in session.execute(query)
    ]


@dataclass(frozen=True)
class GradedReport:
    """One graded submission with its per-test results and diagnosis, for the class view."""

    user_id: int
    exercise_id: str
    score: float
    max_score: float
    created_at: datetime
    tests: list[dict[str, Any]]
    diagnosis_hint: str | None


def graded_reports(
    *, session: Session, exercise_ids: Sequence[str], role: Role | None = None
) -> list[GradedReport]:
    """Every graded submission (not run) to the exercises, oldest first."""
    query = _graded(
        exercise_ids,
        role,
        Submission.score,
        Submission.max_score,
        Submission.tests,
        Submission.diagnosis,
    )
    return [
        GradedReport(
            row[0],
            row[1],
            float(row[3] or 0),
            float(row[4]),
            aware(row[2]),
            list(row[5] or []),
            (row[6] or {}).get("hint"),
        )
        for row in session.execute(query)
    ]
