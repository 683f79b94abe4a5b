"""Accounts: users and their sections, one-time sign-up links, passwords, API tokens, web
sessions, and the service's own secrets."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlalchemy import and_, bindparam, delete, or_, select, update
from sqlalchemy.orm import Session, joinedload

from app.core.names import email_key, name_key
from app.core.security import hash_password, hash_token, new_token, token_display_prefix
from app.models import (
    ApiToken,
    Enrolment,
    MailState,
    Role,
    RosterHandoff,
    ServiceSecret,
    SignupLink,
    User,
    WebSessionRecord,
    utcnow,
)
from app.store._dialect import insert_for

TOKEN_TOUCH_PERIOD = timedelta(minutes=5)
NAME_KEY_LENGTH = 64


# --- users and tokens -------------------------------------------------------------------------


def create_user(
    *, session: Session, name: str, role: Role = Role.LEARNER, password: str | None = None
) -> User:
    """A new user (flushed, not committed); ``password`` enables web sign-in.

    ``name`` is stored as given: app/services/accounts.py checks new names against the rule.
    """
    user = User(
        name=name,
        name_key=name_key(name),
        role=role,
        password_hash=hash_password(password) if password is not None else None,
    )
    session.add(user)
    session.flush()
    return user


def lock_user(*, session: Session, user_id: int) -> None:
    """Hold the user's row until the transaction ends: another transaction that locks it
    waits, and what it reads next (the user's submissions, counted against a budget) includes
    whatever this one commits. PostgreSQL locks the row (``SELECT ... FOR UPDATE``); SQLite
    takes its one write lock with an update that changes nothing (its driver begins the
    transaction there, and a transaction's first statement waits for the lock and then reads
    afresh)."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(select(User.id).where(User.id == user_id).with_for_update())
    else:
        session.execute(update(User).where(User.id == user_id).values(id=User.id))


def get_user_by_name(*, session: Session, name: str) -> User | None:
    """The user whose name is ``name`` once normalised (``ALICE`` finds ``alice``)."""
    key = name_key(name)
    if "\x00" in key or len(key) > NAME_KEY_LENGTH:  # no such name; PostgreSQL refuses NUL
        return None
    return session.scalars(select(User).where(User.name_key == key)).one_or_none()


def list_users(
    *, session: Session, role: Role | None = None, section: str | None = None
) -> Sequence[User]:
    query = select(User).order_by(User.name)
    if role is not None:
        query = query.where(User.role == role)
    if section is not None:
        query = query.where(User.section == section)
    return session.scalars(query).all()


def list_sections(*, session: Session) -> list[str]:
    """Every learner section in use, sorted."""
    query = select(User.section).where(User.section.is_not(None)).distinct().order_by(User.section)
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
    session.add(SignupLink(user_id=user.id, token_hash=hash_token(token), expires_at=expires_at))
    session.flush()
    return token


def get_signup_link(*, session: Session, token: str) -> SignupLink | None:
    return session.scalars(
        select(SignupLink)
        .options(joinedload(SignupLink.user))
        .where(SignupLink.token_hash == hash_token(token))
    ).one_or_none()


def claim_signup_link(*, session: Session, link: SignupLink, now: datetime) -> bool:
    """Mark ``link`` used at ``now`` unless it was used (or replaced) first: one conditional
    update, so of two requests holding the same link at once only one gets it."""
    result = session.execute(
        update(SignupLink)
        .where(
            SignupLink.user_id == link.user_id,
            SignupLink.token_hash == link.token_hash,
            SignupLink.used_at.is_(None),
        )
        .values(used_at=now)
    )
    return int(result.rowcount) == 1  # type: ignore[attr-defined]


def release_signup_link(*, session: Session, link: SignupLink) -> None:
    """Undo the caller's own :func:`claim_signup_link` (no one else can hold the link while it
    is claimed): the password was not set after all."""
    session.execute(
        update(SignupLink)
        .where(SignupLink.user_id == link.user_id, SignupLink.token_hash == link.token_hash)
        .values(used_at=None)
    )


def signup_links(*, session: Session, user_ids: Sequence[int]) -> dict[int, SignupLink]:
    query = select(SignupLink).where(SignupLink.user_id.in_(user_ids))
    return {link.user_id: link for link in session.scalars(query)}


def set_password(*, session: Session, user: User, password: str | None) -> None:
    """A new password, or none (``None``: no web sign-in until a sign-up link sets one)."""
    user.password_hash = hash_password(password) if password is not None else None
    session.flush()


def set_profile(
    *,
    session: Session,
    user: User,
    display_name: str | None,
    email: str | None,
    section: str | None,
) -> None:
    """What a roster says of a learner beside the user name."""
    user.display_name, user.email, user.section = display_name, email, section
    user.email_key = email_key(email) if email is not None else None
    session.flush()


def set_role(*, session: Session, user: User, role: Role) -> None:
    user.role = role
    session.flush()


def set_disabled_at(*, session: Session, user: User, disabled_at: datetime | None) -> None:
    user.disabled_at = disabled_at
    session.flush()


def create_token(
    *, session: Session, user: User, expires_at: datetime | None = None
) -> tuple[ApiToken, str]:
    """A new API token for ``user``: the row (hash only) and the token, to show once."""
    token = new_token()
    row = ApiToken(
        user_id=user.id,
        token_hash=hash_token(token),
        prefix=token_display_prefix(token),
        expires_at=expires_at,
    )
    session.add(row)
    session.flush()
    return row, token


# Built once: every API request checks a token, and building the query cost more than
# running it.
_LIVE_TOKEN = (
    select(ApiToken)
    .options(joinedload(ApiToken.user))
    .where(
        ApiToken.token_hash == bindparam("token_hash"),
        ApiToken.revoked_at.is_(None),
        or_(ApiToken.expires_at.is_(None), ApiToken.expires_at > bindparam("now")),
    )
)


def get_user_by_token(*, session: Session, token: str) -> User | None:
    """The owner of a live token, disabled or not (the caller refuses a disabled one, saying
    so); an active owner's use is noted at most every few minutes."""
    now = utcnow()
    row = session.scalars(_LIVE_TOKEN, {"token_hash": hash_token(token), "now": now}).one_or_none()
    if row is None:
        return None
    if row.user.is_active and (
        row.last_used_at is None or now - row.last_used_at > TOKEN_TOUCH_PERIOD
    ):
        row.last_used_at = now
        session.flush()
    return row.user


def list_tokens(*, session: Session, user: User) -> Sequence[ApiToken]:
    return session.scalars(
        select(ApiToken).where(ApiToken.user_id == user.id).order_by(ApiToken.id)
    ).all()


def revoke_token(*, session: Session, user: User, token_id: int) -> bool:
    """Revoke one of ``user``'s live tokens by its id; False if they have no such live token."""
    result = session.execute(
        update(ApiToken)
        .where(ApiToken.id == token_id, ApiToken.user_id == user.id, ApiToken.revoked_at.is_(None))
        .values(revoked_at=utcnow())
    )
    return int(result.rowcount) == 1  # type: ignore[attr-defined]


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


def get_web_session(
    *, session: Session, id_hash: str, seen_after: datetime
) -> WebSessionRecord | None:
    """The session (with its user) if it exists and was seen after ``seen_after``."""
    return session.scalars(
        select(WebSessionRecord)
        .options(joinedload(WebSessionRecord.user))
        .where(WebSessionRecord.id_hash == id_hash, WebSessionRecord.last_seen_at > seen_after)
    ).one_or_none()


def touch_web_session(*, session: Session, record: WebSessionRecord, seen_at: datetime) -> None:
    record.last_seen_at = seen_at
    session.flush()


def delete_web_sessions(
    *,
    session: Session,
    id_hash: str | None = None,
    user_id: int | None = None,
    seen_before: datetime | None = None,
) -> int:
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


# --- service secrets --------------------------------------------------------------------------


def get_or_create_secret(*, session: Session, name: str, value: str) -> str:
    """The stored secret ``name``, storing ``value`` first if there is none (race-free)."""
    session.execute(
        insert_for(session)(ServiceSecret)
        .values(name=name, value=value, created_at=utcnow())
        .on_conflict_do_nothing(index_elements=["name"])
    )
    return session.scalars(select(ServiceSecret.value).where(ServiceSecret.name == name)).one()


def set_mail_state(*, session: Session, user_id: int, state: MailState, error: str = "") -> None:
    """Record where the e-mail carrying ``user_id``'s current link is (and why it failed)."""
    link = session.get(SignupLink, user_id)
    if link is None:  # replaced and deleted meanwhile: the new link has its own state
        return
    link.mail_state = state
    link.mail_error = error
    link.mailed_at = utcnow() if state is MailState.SENT else link.mailed_at
    session.flush()


def put_handoff(
    *, session: Session, handle_hash: str, user: User, sealed: str, expires_at: datetime
) -> None:
    """Keep an import's sealed links; those past their time go."""
    session.execute(delete(RosterHandoff).where(RosterHandoff.expires_at <= utcnow()))
    session.add(
        RosterHandoff(id_hash=handle_hash, user_id=user.id, expires_at=expires_at, sealed=sealed)
    )
    session.flush()


def get_handoff(*, session: Session, handle_hash: str, user: User) -> str | None:
    """The sealed links of ``user``'s import, while they are kept."""
    return session.scalars(
        select(RosterHandoff.sealed).where(
            RosterHandoff.id_hash == handle_hash,
            RosterHandoff.user_id == user.id,
            RosterHandoff.expires_at > utcnow(),
        )
    ).one_or_none()


def outside_gradebooks(*, session: Session) -> frozenset[int]:
    """The learners the gradebooks leave out: none until the course has a roster; then those
    who signed up on their own and whom no instructor added (docs/teaching.md)."""
    if not has_roster(session=session):
        return frozenset()
    return frozenset(
        session.scalars(
            select(User.id).where(User.role == Role.LEARNER, User.enrolment == Enrolment.SIGNED_UP)
        )
    )


def has_roster(*, session: Session) -> bool:
    """Whether any learner was given a sign-up link (a roster import, ``users link``)."""
    return session.scalar(select(SignupLink.user_id).limit(1)) is not None
