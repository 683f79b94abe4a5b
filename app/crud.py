"""Database queries, and nothing else: every function takes keyword-only arguments."""

from __future__ import annotations

import functools
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import (
    Select,
    Table,
    Update,
    and_,
    bindparam,
    delete,
    func,
    insert,
    literal,
    or_,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session, joinedload

from app.core.names import name_key
from app.core.security import hash_password, hash_token, new_token, token_display_prefix
from app.models import (
    ApiToken,
    EarlierReport,
    Extension,
    Role,
    ServiceSecret,
    SignupLink,
    Submission,
    SubmissionKind,
    SubmissionStatus,
    ThrottleCounter,
    User,
    UTCDateTime,
    WebSessionRecord,
    Worker,
    new_id,
    utcnow,
)

TOKEN_TOUCH_PERIOD = timedelta(minutes=5)
NAME_KEY_LENGTH = 64


# --- users and tokens -------------------------------------------------------------------------

def create_user(*, session: Session, name: str, role: Role = Role.LEARNER,
                password: str | None = None) -> User:
    """A new user (flushed, not committed); ``password`` enables web sign-in.

    ``name`` is stored as given: app/services/accounts.py checks new names against the rule.
    """
    user = User(name=name, name_key=name_key(name), role=role,
                password_hash=hash_password(password) if password is not None else None)
    session.add(user)
    session.flush()
    return user


def get_user(*, session: Session, user_id: int) -> User | None:
    return session.get(User, user_id)


def get_user_by_name(*, session: Session, name: str) -> User | None:
    """The user whose name is ``name`` once normalised (``ALICE`` finds ``alice``)."""
    key = name_key(name)
    if "\x00" in key or len(key) > NAME_KEY_LENGTH:  # no such name; PostgreSQL refuses NUL
        return None
    return session.scalars(select(User).where(User.name_key == key)).one_or_none()


def list_users(*, session: Session, role: Role | None = None,
               section: str | None = None) -> Sequence[User]:
    query = select(User).order_by(User.name)
    if role is not None:
        query = query.where(User.role == role)
    if section is not None:
        query = query.where(User.section == section)
    return session.scalars(query).all()


def list_sections(*, session: Session) -> list[str]:
    """Every learner section in use, sorted."""
    query = (select(User.section).where(User.section.is_not(None)).distinct()
             .order_by(User.section))
    return [s for s in session.scalars(query) if s is not None]


def taken_name_keys(*, session: Session, keys: Sequence[str]) -> set[str]:
    """Which of ``keys`` (``name_key`` values) an account already has."""
    if not keys:
        return set()
    return set(session.scalars(select(User.name_key).where(User.name_key.in_(keys))))


# --- one-time sign-up links -------------------------------------------------------------------

def replace_signup_link(*, session: Session, user: User, expires_at: datetime) -> str:
    """A new link token for ``user`` (only its hash stored); any earlier link stops working."""
    session.execute(delete(SignupLink).where(SignupLink.user_id == user.id))
    token = secrets.token_urlsafe(32)
    session.add(SignupLink(user_id=user.id, token_hash=hash_token(token),
                           expires_at=expires_at))
    session.flush()
    return token


def get_signup_link(*, session: Session, token: str) -> SignupLink | None:
    return session.scalars(select(SignupLink).options(joinedload(SignupLink.user))
                           .where(SignupLink.token_hash == hash_token(token))).one_or_none()


def signup_links(*, session: Session, user_ids: Sequence[int]) -> dict[int, SignupLink]:
    query = select(SignupLink).where(SignupLink.user_id.in_(user_ids))
    return {link.user_id: link for link in session.scalars(query)}


def set_password(*, session: Session, user: User, password: str) -> None:
    user.password_hash = hash_password(password)
    session.flush()


def create_token(*, session: Session, user: User, expires_at: datetime | None = None
                 ) -> tuple[ApiToken, str]:
    """A new API token for ``user``: the row (hash only) and the token, to show once."""
    token = new_token()
    row = ApiToken(user_id=user.id, token_hash=hash_token(token),
                   prefix=token_display_prefix(token), expires_at=expires_at)
    session.add(row)
    session.flush()
    return row, token


# Built once: every API request checks a token, and building the query cost more than
# running it.
_LIVE_TOKEN = (select(ApiToken).options(joinedload(ApiToken.user))
               .where(ApiToken.token_hash == bindparam("token_hash"),
                      ApiToken.revoked_at.is_(None),
                      or_(ApiToken.expires_at.is_(None),
                          ApiToken.expires_at > bindparam("now"))))


def get_user_by_token(*, session: Session, token: str) -> User | None:
    """The active owner of a live token; notes its use at most every few minutes."""
    now = utcnow()
    row = session.scalars(_LIVE_TOKEN, {"token_hash": hash_token(token), "now": now}
                          ).one_or_none()
    if row is None or not row.user.is_active:
        return None
    if row.last_used_at is None or now - row.last_used_at > TOKEN_TOUCH_PERIOD:
        row.last_used_at = now
        session.flush()
    return row.user


def list_tokens(*, session: Session, user: User) -> Sequence[ApiToken]:
    return session.scalars(
        select(ApiToken).where(ApiToken.user_id == user.id).order_by(ApiToken.id)).all()


def revoke_tokens(*, session: Session, user: User, prefix: str | None = None) -> int:
    """Revoke the user's live tokens (only those starting with ``prefix``, taken literally)."""
    condition = and_(ApiToken.user_id == user.id, ApiToken.revoked_at.is_(None))
    if prefix:
        condition = and_(condition, ApiToken.prefix.startswith(prefix[:16], autoescape=True))
    result = session.execute(update(ApiToken).where(condition).values(revoked_at=utcnow()))
    return int(result.rowcount)  # type: ignore[attr-defined]


# --- web sessions -----------------------------------------------------------------------------

def create_web_session(*, session: Session, user: User, id_hash: str) -> WebSessionRecord:
    record = WebSessionRecord(id_hash=id_hash, user_id=user.id)
    session.add(record)
    session.flush()
    return record


def get_web_session(*, session: Session, id_hash: str, seen_after: datetime
                    ) -> WebSessionRecord | None:
    """The session (with its user) if it exists and was seen after ``seen_after``."""
    return session.scalars(
        select(WebSessionRecord).options(joinedload(WebSessionRecord.user))
        .where(WebSessionRecord.id_hash == id_hash, WebSessionRecord.last_seen_at > seen_after)
    ).one_or_none()


def delete_web_sessions(*, session: Session, id_hash: str | None = None,
                        user_id: int | None = None, seen_before: datetime | None = None) -> int:
    """Delete one session, all of a user's, or all not seen since ``seen_before``."""
    query = delete(WebSessionRecord)
    if id_hash is not None:
        query = query.where(WebSessionRecord.id_hash == id_hash)
    if user_id is not None:
        query = query.where(WebSessionRecord.user_id == user_id)
    if seen_before is not None:
        query = query.where(WebSessionRecord.last_seen_at < seen_before)
    result = session.execute(query.execution_options(synchronize_session=False))
    return int(result.rowcount)  # type: ignore[attr-defined]


# --- service secrets and throttles ------------------------------------------------------------

def _insert(session: Session) -> Callable[..., Any]:
    """The dialect's INSERT, which has ``on_conflict_do_*`` (SQLite and PostgreSQL alike)."""
    return postgresql.insert if session.get_bind().dialect.name == "postgresql" else sqlite.insert


def get_or_create_secret(*, session: Session, name: str, value: str) -> str:
    """The stored secret ``name``, storing ``value`` first if there is none (race-free)."""
    session.execute(_insert(session)(ServiceSecret)
                    .values(name=name, value=value, created_at=utcnow())
                    .on_conflict_do_nothing(index_elements=["name"]))
    return session.scalars(select(ServiceSecret.value)
                           .where(ServiceSecret.name == name)).one()


def count_hit(*, session: Session, key_hash: str, window_start: int, window_end: int,
              hits: int = 1) -> int:
    """Add ``hits`` to a key's counter in a window (one atomic upsert); the new total."""
    statement = (_insert(session)(ThrottleCounter)
                 .values(key_hash=key_hash, window_start=window_start, window_end=window_end,
                         hits=hits))
    statement = statement.on_conflict_do_update(
        index_elements=["key_hash", "window_start"],
        set_={"hits": ThrottleCounter.hits + statement.excluded.hits},
    ).returning(ThrottleCounter.hits)
    return int(session.execute(statement).scalar_one())


def get_hits(*, session: Session, key_hash: str, window_start: int) -> int:
    hits = session.scalars(select(ThrottleCounter.hits).where(
        ThrottleCounter.key_hash == key_hash,
        ThrottleCounter.window_start == window_start)).one_or_none()
    return hits or 0


def delete_hits(*, session: Session, key_hash: str | None = None,
                ended_before: int | None = None) -> None:
    """Forget a key's counters, or every counter whose window ended before ``ended_before``."""
    query = delete(ThrottleCounter)
    if key_hash is not None:
        query = query.where(ThrottleCounter.key_hash == key_hash)
    if ended_before is not None:
        query = query.where(ThrottleCounter.window_end < ended_before)
    session.execute(query.execution_options(synchronize_session=False))


# --- submissions ------------------------------------------------------------------------------

def create_submission(*, session: Session, user: User, exercise_id: str, exercise_version: str,
                      code: str, kind: SubmissionKind, lease_expires_at: datetime,
                      submission_id: str | None = None,
                      idempotency_key: str | None = None) -> Submission:
    submission = Submission(id=submission_id or new_id(), user_id=user.id, exercise_id=exercise_id,
                            exercise_version=exercise_version, code=code, kind=kind,
                            status=SubmissionStatus.QUEUED, lease_expires_at=lease_expires_at,
                            output="", message="", attempts=0, idempotency_key=idempotency_key)
    session.add(submission)
    session.flush()
    return submission


def get_submission_by_idempotency_key(*, session: Session, user_id: int,
                                      key: str) -> Submission | None:
    return session.scalars(select(Submission).options(joinedload(Submission.user)).where(
        Submission.user_id == user_id, Submission.idempotency_key == key)).one_or_none()


@dataclass(frozen=True)
class LearnerLoad:
    """What one learner has in the system now (the fairness limits)."""

    waiting: int
    recent: int  # created since the ``since`` asked for (0 when not asked)
    oldest_recent_at: datetime | None  # the oldest of those


# A regrade waits in nobody's quota: the learner did not ask for it.
_OWN_QUEUED = and_(Submission.status == SubmissionStatus.QUEUED, Submission.regrade.is_(False))
_RECENT = Submission.created_at >= bindparam("since")
# Built once: each submission checks its learner's load, and building the query cost more
# than running it.
_WAITING = (select(func.count().filter(_OWN_QUEUED))
            .where(Submission.user_id == bindparam("load_user_id"), _OWN_QUEUED))
_WAITING_AND_RECENT = (select(func.count().filter(_OWN_QUEUED), func.count().filter(_RECENT),
                              func.min(Submission.created_at).filter(_RECENT))
                       .where(Submission.user_id == bindparam("load_user_id"),
                              or_(_OWN_QUEUED, _RECENT)))


def learner_load(*, session: Session, user_id: int, since: datetime | None) -> LearnerLoad:
    """Queued submissions of the learner and, if ``since`` is given, those created since."""
    if since is None:
        count = session.scalar(_WAITING, {"load_user_id": user_id})
        return LearnerLoad(waiting=int(count or 0), recent=0, oldest_recent_at=None)
    row = session.execute(_WAITING_AND_RECENT, {"load_user_id": user_id, "since": since}).one()
    return LearnerLoad(waiting=int(row[0] or 0), recent=int(row[1] or 0),
                       oldest_recent_at=_aware(row[2]) if row[2] is not None else None)


def get_submission(*, session: Session, submission_id: str,
                   with_user: bool = False) -> Submission | None:
    """The submission (and its user in the same query with ``with_user``)."""
    options = (joinedload(Submission.user),) if with_user else ()
    return session.get(Submission, submission_id, options=options)


def submission_progress(*, session: Session, submission_id: str
                        ) -> tuple[SubmissionStatus, int] | None:
    """A submission's status and attempt count: enough to tell whether it moved on, for a
    fraction of loading the row (a long-poll asks several times a second)."""
    row = session.execute(_PROGRESS, {"polled_id": submission_id}).one_or_none()
    return (row[0], int(row[1])) if row is not None else None


def list_submissions(*, session: Session, user_id: int | None = None,
                     exercise_id: str | None = None, kind: SubmissionKind | None = None,
                     limit: int = 50) -> Sequence[Submission]:
    """Newest first; filter by user, exercise and kind (``None``: any)."""
    query = select(Submission)
    if user_id is not None:
        query = query.where(Submission.user_id == user_id)
    if exercise_id is not None:
        query = query.where(Submission.exercise_id == exercise_id)
    if kind is not None:
        query = query.where(Submission.kind == kind)
    query = query.order_by(Submission.created_at.desc(), Submission.id.desc())
    return session.scalars(query.limit(limit)).all()


@dataclass(frozen=True)
class BestScore:
    user_id: int
    user_name: str
    exercise_id: str
    best_score: float
    max_score: float
    submissions: int
    last_submitted_at: datetime


def _has_result() -> Any:
    """Graded: done, or queued again for a regrade and still holding its earlier result."""
    return or_(Submission.status == SubmissionStatus.DONE, Submission.regrade.is_(True))


def best_scores(*, session: Session, user_id: int | None = None,
                exercise_id: str | None = None, role: Role | None = None,
                section: str | None = None) -> list[BestScore]:
    """Best graded score per (user, exercise), from finished submissions (runs never count);
    ``section``: of that section's users only."""
    query = (
        select(Submission.user_id, User.name, Submission.exercise_id,
               func.max(Submission.score), func.max(Submission.max_score),
               func.count(Submission.id), func.max(Submission.created_at))
        .join(User, User.id == Submission.user_id)
        .where(Submission.kind == SubmissionKind.SUBMIT, _has_result())
        .group_by(Submission.user_id, User.name, Submission.exercise_id)
        .order_by(User.name, Submission.exercise_id)
    )
    if user_id is not None:
        query = query.where(Submission.user_id == user_id)
    if exercise_id is not None:
        query = query.where(Submission.exercise_id == exercise_id)
    if role is not None:
        query = query.where(User.role == role)
    if section is not None:
        query = query.where(User.section == section)
    rows = session.execute(query).all()
    return [BestScore(r[0], r[1], r[2], float(r[3] or 0.0), float(r[4] or 0.0), int(r[5]),
                      _aware(r[6])) for r in rows]


def _aware(value: Any) -> datetime:
    # func.max() and Core RETURNING bypass the column type on SQLite, which may hand back a
    # naive value or text.
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    result = UTCDateTime().process_result_value(value, None)  # type: ignore[arg-type]
    assert result is not None
    return result


# --- the grading lifecycle (compare-and-set updates: the row is the truth) --------------------

# The two updates every grading makes are built once with bound parameters: building an ORM
# update per call, with the report's JSON in its VALUES, cost more than running it.
# The mapped tables, typed as tables (``__table__`` is declared as a FromClause).
_submissions_table = cast(Table, Submission.__table__)
_submissions = _submissions_table.c
_running = Submission.__table__.alias("running")
_PROGRESS = (select(_submissions.status, _submissions.attempts)
             .where(_submissions.id == bindparam("polled_id")))


def _claimable(now: Any) -> Any:
    return or_(_submissions.status == SubmissionStatus.QUEUED,
               and_(_submissions.status == SubmissionStatus.RUNNING,
                    _submissions.lease_expires_at < now))


def _live(now: Any) -> Any:
    return and_(_running.c.status == SubmissionStatus.RUNNING,
                _running.c.lease_expires_at >= now)


def _in_flight(user_id: Any, now: Any) -> Any:
    """How many of ``user_id``'s own gradings (not regrades) hold a live lease."""
    return (select(func.count()).select_from(_running)
            .where(_running.c.user_id == user_id, _running.c.regrade.is_(False), _live(now))
            .scalar_subquery())


def _regrades_in_flight(now: Any) -> Any:
    """How many regrades hold a live lease, on every worker."""
    return (select(func.count()).select_from(_running)
            .where(_running.c.regrade.is_(True), _live(now)).scalar_subquery())


def _has_room(user_id: Any, now: Any) -> Any:
    """A learner's own row while they have fewer than ``max_running`` in flight; a regrade
    while fewer than ``max_regrades`` regrades are (so most threads stay free for learners).
    Two workers may both take the last regrade slot: the cap is a share, not a lock."""
    return or_(and_(_submissions.regrade.is_(False),
                    _in_flight(user_id, now) < bindparam("max_running")),
               and_(_submissions.regrade.is_(True),
                    _regrades_in_flight(now) < bindparam("max_regrades")))


_CLAIM = (
    update(_submissions_table)
    .where(_submissions.id == bindparam("claimed_id"), _claimable(bindparam("now")),
           _has_room(bindparam("claiming_user"), bindparam("now")))
    .values(status=SubmissionStatus.RUNNING, attempts=_submissions.attempts + 1,
            worker=bindparam("claiming_worker"), lease_token=bindparam("new_lease_token"),
            lease_expires_at=bindparam("new_lease_expires_at"), started_at=bindparam("now"))
    .returning(*_submissions)
)

_older = Submission.__table__.alias("older")
# One candidate per learner: the claim of a learner's older row would be refused for the same
# reason as the newer one's, and a list of one learner's rows is lost whole when another
# machine claims that learner first.
_first_of_learner = ~(
    select(_older.c.id).where(
        _older.c.user_id == _submissions.user_id, _older.c.regrade == _submissions.regrade,
        or_(_older.c.status == SubmissionStatus.QUEUED,
            and_(_older.c.status == SubmissionStatus.RUNNING,
                 _older.c.lease_expires_at < bindparam("now"))),
        or_(_older.c.created_at < _submissions.created_at,
            and_(_older.c.created_at == _submissions.created_at,
                 _older.c.id < _submissions.id)))
    .exists())
_last_started = (select(func.max(_running.c.started_at))
                 .where(_running.c.user_id == _submissions.user_id).scalar_subquery())
_in_flight_here = _in_flight(_submissions.user_id, bindparam("now"))
_users = User.__table__.c
_CANDIDATES = (
    select(_submissions.id, _submissions.user_id, _submissions.exercise_id, _users.name)
    .join(User.__table__, _users.id == _submissions.user_id)
    .where(_claimable(bindparam("now")), _has_room(_submissions.user_id, bindparam("now")),
           _first_of_learner)
    # Learners' own work before regrades; then fewest in flight, then the learner served
    # longest ago (round robin), then age.
    .order_by(_submissions.regrade, _in_flight_here, _last_started.asc().nulls_first(),
              _submissions.created_at)
    .limit(bindparam("candidates"))
)


@dataclass(frozen=True)
class Candidate:
    id: str
    user_id: int
    exercise_id: str
    user_name: str


def next_candidates(*, session: Session, now: datetime, max_running: int,
                    max_regrades: int, limit: int = 8) -> list[Candidate]:
    """Claimable submissions in fair order, each learner's oldest only, of learners below
    ``max_running`` in flight (regrades while fewer than ``max_regrades`` run)."""
    rows = session.execute(_CANDIDATES, {"now": now, "max_running": max_running,
                                         "max_regrades": max_regrades,
                                         "candidates": limit}).all()
    return [Candidate(r[0], int(r[1]), r[2], r[3]) for r in rows]


def claim_submission(*, session: Session, candidate: Candidate, worker: str, lease_token: str,
                     lease_expires_at: datetime, now: datetime,
                     max_running: int, max_regrades: int) -> Submission | None:
    """Mark a queued (or expired running) row as running for this worker, if its learner
    still has fewer than ``max_running`` in flight; the claimed row, or None.

    On PostgreSQL the learner's row is locked first so two workers cannot both take the
    learner's last slot; a learner another worker is claiming right now is skipped rather
    than waited for (that claim will most likely take the slot). SQLite runs one writer at a
    time anyway.
    """
    if session.get_bind().dialect.name == "postgresql" and session.execute(
            select(User.id).where(User.id == candidate.user_id)
            .with_for_update(skip_locked=True)).first() is None:
        return None
    row = session.execute(_CLAIM, {
        "claimed_id": candidate.id, "now": now, "claiming_worker": worker,
        "new_lease_token": lease_token, "new_lease_expires_at": lease_expires_at,
        "claiming_user": candidate.user_id, "max_running": max_running,
        "max_regrades": max_regrades,
    }).one_or_none()
    return submission_from_row(row) if row is not None else None


def submission_from_row(row: Any) -> Submission:
    """A detached ``Submission`` holding a ``RETURNING`` row's values."""
    values = dict(row._mapping)
    for column in Submission.__table__.c:
        if isinstance(column.type, UTCDateTime):
            value = values.get(column.key)
            values[column.key] = _aware(value) if value is not None else None
    return Submission(**values)


@functools.cache
def _finish_statement(columns: tuple[str, ...], leased: bool) -> Update:
    condition = _submissions.status != SubmissionStatus.DONE
    if leased:
        condition = and_(condition, _submissions.lease_token == bindparam("held_lease_token"))
    return (update(_submissions_table)
            .where(_submissions.id == bindparam("finished_id"), condition)
            .values(status=SubmissionStatus.DONE, lease_expires_at=None,
                    **{column: bindparam(f"new_{column}") for column in columns})
            .returning(*_submissions))


def finish_submission(*, session: Session, submission_id: str, lease_token: str | None,
                      values: dict[str, Any]) -> Submission | None:
    """Store a result if this lease still holds it (``lease_token=None``: unconditionally);
    the stored row, or None when the lease was lost."""
    statement = _finish_statement(tuple(sorted(values)), lease_token is not None)
    parameters = {f"new_{column}": value for column, value in values.items()}
    parameters["finished_id"] = submission_id
    if lease_token is not None:
        parameters["held_lease_token"] = lease_token
    row = session.execute(statement, parameters).one_or_none()
    return submission_from_row(row) if row is not None else None


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

def _graded(exercise_ids: Sequence[str], role: Role | None, *columns: Any) -> Select[Any]:
    """``(user_id, exercise_id, created_at, *columns)`` of every graded submission (not a run)
    to the exercises, oldest first; only users of ``role`` if given."""
    query = (select(Submission.user_id, Submission.exercise_id, Submission.created_at, *columns)
             .join(User, User.id == Submission.user_id)
             .where(Submission.exercise_id.in_(exercise_ids),
                    Submission.kind == SubmissionKind.SUBMIT, _has_result(),
                    Submission.max_score > 0)
             .order_by(Submission.created_at))
    return query if role is None else query.where(User.role == role)


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
    query = _graded(exercise_ids, role, User.name, Submission.score, Submission.max_score)
    if user_id is not None:
        query = query.where(Submission.user_id == user_id)
    return [GradedAttempt(row[0], row[3], row[1], float(row[4] or 0), float(row[5] or 0),
                          _aware(row[2])) for row in session.execute(query)]


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


def graded_reports(*, session: Session, exercise_ids: Sequence[str],
                   role: Role | None = None) -> list[GradedReport]:
    """Every graded submission (not run) to the exercises, oldest first."""
    query = _graded(exercise_ids, role, Submission.score, Submission.max_score,
                    Submission.tests, Submission.diagnosis)
    return [GradedReport(row[0], row[1], float(row[3] or 0), float(row[4]), _aware(row[2]),
                         list(row[5] or []), (row[6] or {}).get("hint"))
            for row in session.execute(query)]


def mark_unsent(*, session: Session, submission_ids: Sequence[str], now: datetime) -> None:
    """Queued rows whose wake-up could not be sent: due for recovery's next pass."""
    session.execute(update(Submission).where(Submission.id.in_(submission_ids),
                                             Submission.status == SubmissionStatus.QUEUED)
                    .values(lease_expires_at=now)
                    .execution_options(synchronize_session=False))


# --- grading processes -------------------------------------------------------------------------

def beat(*, session: Session, worker: str, threads: int, started_at: datetime, now: datetime,
         canary: tuple[datetime, bool, str] | None) -> None:
    """Insert or refresh ``worker``'s heartbeat (and its latest canary, if one ran)."""
    row = session.get(Worker, worker)
    if row is None:
        row = Worker(id=worker, threads=threads, started_at=started_at, heartbeat_at=now,
                     canary_message="")
        session.add(row)
    row.heartbeat_at = now
    if canary is not None:
        row.canary_at, row.canary_ok, row.canary_message = canary
    session.flush()


def forget_worker(*, session: Session, worker: str) -> None:
    session.execute(delete(Worker).where(Worker.id == worker))


def live_workers(*, session: Session, since: datetime) -> Sequence[Worker]:
    """Workers whose last heartbeat is at or after ``since``; older rows are removed."""
    session.execute(delete(Worker).where(Worker.heartbeat_at < since - timedelta(hours=1)))
    return session.scalars(select(Worker).where(Worker.heartbeat_at >= since)).all()


def silent_workers_running(*, session: Session, silent_since: datetime) -> Sequence[Submission]:
    """Running rows claimed before ``silent_since`` by a worker with no heartbeat since then
    (a killed worker's): their leases may still run for a while."""
    alive = select(Worker.id).where(Worker.heartbeat_at >= silent_since)
    return session.scalars(select(Submission).where(
        Submission.status == SubmissionStatus.RUNNING, Submission.started_at < silent_since,
        or_(Submission.worker.is_(None), Submission.worker.not_in(alive)))).all()


def forget_silent_workers(*, session: Session, silent_since: datetime) -> None:
    session.execute(delete(Worker).where(Worker.heartbeat_at < silent_since))


RECOVERY_LOCK = 0x6E6A7265  # any constant of this service's own: "njre"


def take_recovery_turn(*, session: Session) -> bool:
    """Whether this transaction may re-send rows now: on PostgreSQL one process at a time
    (an advisory lock held until the transaction ends), on SQLite always (one machine)."""
    if session.get_bind().dialect.name != "postgresql":
        return True
    return bool(session.scalar(select(func.pg_try_advisory_xact_lock(RECOVERY_LOCK))))


def queued_backlog(*, session: Session) -> tuple[int, datetime | None]:
    """Queued rows and the creation time of the oldest."""
    count, oldest = session.execute(select(func.count(), func.min(Submission.created_at)).where(
        Submission.status == SubmissionStatus.QUEUED)).one()
    return int(count or 0), _aware(oldest) if oldest is not None else None



# --- regrades ---------------------------------------------------------------------------------

def _graded_with_another_version(exercise_id: str, version: str) -> Any:
    return and_(Submission.exercise_id == exercise_id, Submission.exercise_version != version,
                Submission.kind == SubmissionKind.SUBMIT,
                Submission.status == SubmissionStatus.DONE)


def count_stale(*, session: Session, versions: dict[str, str]) -> dict[str, int]:
    """Per exercise: graded submissions whose version is not ``versions[exercise]``."""
    counts = {}
    for exercise_id, version in versions.items():
        counts[exercise_id] = int(session.scalar(select(func.count()).select_from(
            Submission).where(_graded_with_another_version(exercise_id, version))) or 0)
    return counts


def queue_regrades(*, session: Session, exercise_id: str, version: str, now: datetime,
                   lease_expires_at: datetime) -> list[str]:
    """Keep the current report of every submission graded with another version as an
    earlier report, then queue the submission again as a regrade; the ids queued."""
    stale = _graded_with_another_version(exercise_id, version)
    ids = list(session.scalars(select(Submission.id).where(stale)))
    if not ids:
        return []
    chosen = Submission.id.in_(ids)
    session.execute(insert(EarlierReport).from_select(
        ["submission_id", "exercise_version", "verdict", "score", "max_score", "tests",
         "diagnosis", "message", "graded_at", "replaced_at"],
        select(Submission.id, Submission.exercise_version, Submission.verdict, Submission.score,
               Submission.max_score, Submission.tests, Submission.diagnosis, Submission.message,
               Submission.finished_at, literal(now, UTCDateTime())).where(chosen, stale)))
    session.execute(update(Submission).where(chosen, stale).values(
        status=SubmissionStatus.QUEUED, regrade=True, attempts=0, lease_token=None,
        lease_expires_at=lease_expires_at, worker=None
    ).execution_options(synchronize_session=False))
    return ids


def earlier_reports(*, session: Session, submission_id: str) -> Sequence[EarlierReport]:
    """The reports a submission had before its regrades, oldest first."""
    return session.scalars(select(EarlierReport).where(
        EarlierReport.submission_id == submission_id).order_by(EarlierReport.id)).all()
