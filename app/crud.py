"""Database queries, and nothing else: every function takes keyword-only arguments."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Update, and_, bindparam, func, or_, select, update
from sqlalchemy.orm import Session, joinedload

from app.core.security import (
    hash_password,
    hash_token,
    new_token,
    token_display_prefix,
    verify_password,
)
from app.models import (
    ApiToken,
    Extension,
    Role,
    Submission,
    SubmissionKind,
    SubmissionStatus,
    User,
    new_id,
    utcnow,
)

TOKEN_TOUCH_PERIOD = timedelta(minutes=5)


# --- users and tokens -------------------------------------------------------------------------

def create_user(*, session: Session, name: str, role: Role = Role.LEARNER,
                password: str | None = None) -> User:
    """A new user (flushed, not committed); ``password`` enables web sign-in."""
    user = User(name=name, role=role,
                password_hash=hash_password(password) if password is not None else None)
    session.add(user)
    session.flush()
    return user


def get_user(*, session: Session, user_id: int) -> User | None:
    return session.get(User, user_id)


def get_user_by_name(*, session: Session, name: str) -> User | None:
    return session.scalars(select(User).where(User.name == name)).one_or_none()


def list_users(*, session: Session) -> Sequence[User]:
    return session.scalars(select(User).order_by(User.name)).all()


def set_password(*, session: Session, user: User, password: str) -> None:
    user.password_hash = hash_password(password)
    session.flush()


def authenticate_password(*, session: Session, name: str, password: str) -> User | None:
    """The user if ``password`` is theirs, else None (also for users without a password)."""
    user = get_user_by_name(session=session, name=name)
    if user is None or user.password_hash is None:
        return None
    return user if verify_password(user.password_hash, password) else None


def create_token(*, session: Session, user: User) -> tuple[ApiToken, str]:
    """A new API token for ``user``: the row (hash only) and the token, to show once."""
    token = new_token()
    row = ApiToken(user_id=user.id, token_hash=hash_token(token),
                   prefix=token_display_prefix(token))
    session.add(row)
    session.flush()
    return row, token


def get_user_by_token(*, session: Session, token: str) -> User | None:
    """The owner of a valid, unrevoked token; notes its use at most every few minutes."""
    row = session.scalars(
        select(ApiToken).options(joinedload(ApiToken.user))
        .where(ApiToken.token_hash == hash_token(token), ApiToken.revoked_at.is_(None))
    ).one_or_none()
    if row is None:
        return None
    now = utcnow()
    if row.last_used_at is None or now - row.last_used_at > TOKEN_TOUCH_PERIOD:
        row.last_used_at = now
        session.flush()
    return row.user


def list_tokens(*, session: Session, user: User) -> Sequence[ApiToken]:
    return session.scalars(
        select(ApiToken).where(ApiToken.user_id == user.id).order_by(ApiToken.id)).all()


def revoke_tokens(*, session: Session, user: User, prefix: str | None = None) -> int:
    """Revoke the user's live tokens (only those starting with ``prefix`` if given)."""
    condition = and_(ApiToken.user_id == user.id, ApiToken.revoked_at.is_(None))
    if prefix:
        condition = and_(condition, ApiToken.prefix.startswith(prefix[:16]))
    result = session.execute(update(ApiToken).where(condition).values(revoked_at=utcnow()))
    return int(result.rowcount)  # type: ignore[attr-defined]


# --- submissions ------------------------------------------------------------------------------

def create_submission(*, session: Session, user: User, exercise_id: str, exercise_version: str,
                      code: str, kind: SubmissionKind, lease_expires_at: datetime,
                      submission_id: str | None = None) -> Submission:
    submission = Submission(id=submission_id or new_id(), user_id=user.id, exercise_id=exercise_id,
                            exercise_version=exercise_version, code=code, kind=kind,
                            status=SubmissionStatus.QUEUED, lease_expires_at=lease_expires_at,
                            output="", message="", attempts=0)
    session.add(submission)
    session.flush()
    return submission


def get_submission(*, session: Session, submission_id: str,
                   with_user: bool = False) -> Submission | None:
    """The submission (and its user in the same query with ``with_user``)."""
    options = (joinedload(Submission.user),) if with_user else ()
    return session.get(Submission, submission_id, options=options)


def list_submissions(*, session: Session, user_id: int | None = None,
                     exercise_id: str | None = None, kind: SubmissionKind | None = None,
                     limit: int = 50, offset: int = 0) -> Sequence[Submission]:
    """Newest first; filter by user, exercise and kind (``None``: any)."""
    query = select(Submission)
    if user_id is not None:
        query = query.where(Submission.user_id == user_id)
    if exercise_id is not None:
        query = query.where(Submission.exercise_id == exercise_id)
    if kind is not None:
        query = query.where(Submission.kind == kind)
    query = query.order_by(Submission.created_at.desc(), Submission.id.desc())
    return session.scalars(query.limit(limit).offset(offset)).all()


@dataclass(frozen=True)
class BestScore:
    user_id: int
    user_name: str
    exercise_id: str
    best_score: float
    max_score: float
    submissions: int
    last_submitted_at: datetime


def best_scores(*, session: Session, user_id: int | None = None,
                exercise_id: str | None = None, role: Role | None = None) -> list[BestScore]:
    """Best graded score per (user, exercise), from finished submissions (runs never count)."""
    query = (
        select(Submission.user_id, User.name, Submission.exercise_id,
               func.max(Submission.score), func.max(Submission.max_score),
               func.count(Submission.id), func.max(Submission.created_at))
        .join(User, User.id == Submission.user_id)
        .where(Submission.kind == SubmissionKind.SUBMIT,
               Submission.status == SubmissionStatus.DONE)
        .group_by(Submission.user_id, User.name, Submission.exercise_id)
        .order_by(User.name, Submission.exercise_id)
    )
    if user_id is not None:
        query = query.where(Submission.user_id == user_id)
    if exercise_id is not None:
        query = query.where(Submission.exercise_id == exercise_id)
    if role is not None:
        query = query.where(User.role == role)
    rows = session.execute(query).all()
    return [BestScore(r[0], r[1], r[2], float(r[3] or 0.0), float(r[4] or 0.0), int(r[5]),
                      _aware(r[6])) for r in rows]


def _aware(value: Any) -> datetime:
    # func.max() bypasses the column type on SQLite, which may hand back a naive value or text.
    from app.models import UTCDateTime

    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    result = UTCDateTime().process_result_value(value, None)  # type: ignore[arg-type]
    assert result is not None
    return result


# --- the grading lifecycle (compare-and-set updates: the row is the truth) --------------------

# The two updates every grading makes are built once with bound parameters: building an ORM
# update per call, with the report's JSON in its VALUES, cost more than running it.
_submissions = Submission.__table__.c

_CLAIM = (
    update(Submission.__table__)
    .where(_submissions.id == bindparam("claimed_id"),
           or_(_submissions.status == SubmissionStatus.QUEUED,
               and_(_submissions.status == SubmissionStatus.RUNNING,
                    _submissions.lease_expires_at < bindparam("now"))))
    .values(status=SubmissionStatus.RUNNING, attempts=_submissions.attempts + 1,
            worker=bindparam("claiming_worker"), lease_token=bindparam("new_lease_token"),
            lease_expires_at=bindparam("new_lease_expires_at"), started_at=bindparam("now"))
    .returning(_submissions.attempts)
)


@functools.cache
def _finish_statement(columns: tuple[str, ...], leased: bool) -> Update:
    condition = _submissions.status != SubmissionStatus.DONE
    if leased:
        condition = and_(condition, _submissions.lease_token == bindparam("held_lease_token"))
    return (update(Submission.__table__)
            .where(_submissions.id == bindparam("finished_id"), condition)
            .values(status=SubmissionStatus.DONE, lease_expires_at=None,
                    **{column: bindparam(f"new_{column}") for column in columns}))


def claim_submission(*, session: Session, submission_id: str, worker: str, lease_token: str,
                     lease_expires_at: datetime, now: datetime) -> int | None:
    """Mark queued (or running with an expired lease) as running for this worker.

    Returns the attempt number this claim made, or None if the row could not be claimed.
    """
    attempts = session.execute(_CLAIM, {
        "claimed_id": submission_id, "now": now, "claiming_worker": worker,
        "new_lease_token": lease_token, "new_lease_expires_at": lease_expires_at,
    }).scalar_one_or_none()
    return int(attempts) if attempts is not None else None


def finish_submission(*, session: Session, submission_id: str, lease_token: str | None,
                      values: dict[str, Any]) -> bool:
    """Store a result if this lease still holds it (``lease_token=None``: unconditionally)."""
    statement = _finish_statement(tuple(sorted(values)), lease_token is not None)
    parameters = {f"new_{column}": value for column, value in values.items()}
    parameters["finished_id"] = submission_id
    if lease_token is not None:
        parameters["held_lease_token"] = lease_token
    result = session.execute(statement, parameters)
    return bool(result.rowcount)  # type: ignore[attr-defined]


def release_submission(*, session: Session, submission_id: str, lease_token: str,
                       lease_expires_at: datetime) -> bool:
    """Give a running submission back to the queue (an engine fault, a shutdown)."""
    result = session.execute(
        update(Submission)
        .where(Submission.id == submission_id, Submission.lease_token == lease_token,
               Submission.status == SubmissionStatus.RUNNING)
        .values(status=SubmissionStatus.QUEUED, lease_token=None,
                lease_expires_at=lease_expires_at)
        .execution_options(synchronize_session=False)
    )
    return bool(result.rowcount)  # type: ignore[attr-defined]


def unfinished_submissions(*, session: Session, expired_before: datetime | None = None,
                           limit: int = 1000) -> Sequence[Submission]:
    """Queued or running submissions (with a lease older than ``expired_before`` if given)."""
    query = select(Submission).where(
        Submission.status.in_([SubmissionStatus.QUEUED, SubmissionStatus.RUNNING]))
    if expired_before is not None:
        query = query.where(or_(Submission.lease_expires_at.is_(None),
                                Submission.lease_expires_at < expired_before))
    return session.scalars(query.order_by(Submission.created_at).limit(limit)).all()


def requeue_submission(*, session: Session, submission_id: str, seen_lease: datetime | None,
                       lease_expires_at: datetime) -> bool:
    """Put a stuck submission back in the queue, unless someone else just did (CAS)."""
    same_lease = (Submission.lease_expires_at.is_(None) if seen_lease is None
                  else Submission.lease_expires_at == seen_lease)
    result = session.execute(
        update(Submission)
        .where(Submission.id == submission_id, same_lease,
               Submission.status != SubmissionStatus.DONE)
        .values(status=SubmissionStatus.QUEUED, lease_token=None,
                lease_expires_at=lease_expires_at)
        .execution_options(synchronize_session=False)
    )
    return bool(result.rowcount)  # type: ignore[attr-defined]


# --- courses ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class GradedAttempt:
    """One graded submission, as the late policy needs it."""

    user_id: int
    user_name: str
    exercise_id: str
    score: float
    max_score: float
    created_at: datetime


def graded_attempts(*, session: Session, exercise_ids: Sequence[str],
                    user_id: int | None = None,
                    role: Role | None = None) -> list[GradedAttempt]:
    """Every graded submission (not run) to the exercises, oldest first."""
    query = (select(Submission.user_id, User.name, Submission.exercise_id, Submission.score,
                    Submission.max_score, Submission.created_at)
             .join(User, User.id == Submission.user_id)
             .where(Submission.exercise_id.in_(exercise_ids),
                    Submission.kind == SubmissionKind.SUBMIT,
                    Submission.status == SubmissionStatus.DONE,
                    Submission.max_score > 0)
             .order_by(Submission.created_at))
    if user_id is not None:
        query = query.where(Submission.user_id == user_id)
    if role is not None:
        query = query.where(User.role == role)
    return [GradedAttempt(row[0], row[1], row[2], float(row[3] or 0), float(row[4]),
                          _aware(row[5])) for row in session.execute(query)]


def get_extension(*, session: Session, user_id: int, assignment_id: str) -> Extension | None:
    return session.scalars(select(Extension).where(
        Extension.user_id == user_id, Extension.assignment_id == assignment_id)).one_or_none()


def list_extensions(*, session: Session, assignment_id: str | None = None,
                    user_id: int | None = None) -> Sequence[Extension]:
    query = select(Extension).options(joinedload(Extension.user)).order_by(Extension.id)
    if assignment_id is not None:
        query = query.where(Extension.assignment_id == assignment_id)
    if user_id is not None:
        query = query.where(Extension.user_id == user_id)
    return session.scalars(query).all()


def set_extension(*, session: Session, user: User, assignment_id: str, due: datetime,
                  granted_by: str) -> Extension:
    """Grant or move ``user``'s own due time for the assignment."""
    extension = get_extension(session=session, user_id=user.id, assignment_id=assignment_id)
    if extension is None:
        extension = Extension(user_id=user.id, assignment_id=assignment_id, due=due,
                              granted_by=granted_by)
        session.add(extension)
    else:
        extension.due, extension.granted_by = due, granted_by
    session.flush()
    return extension


def delete_extension(*, session: Session, user_id: int, assignment_id: str) -> bool:
    extension = get_extension(session=session, user_id=user_id, assignment_id=assignment_id)
    if extension is None:
        return False
    session.delete(extension)
    session.flush()
    return True
