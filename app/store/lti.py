"""LTI 1.3: registered platforms, the tool's key pairs, the launch cache, LMS users' links,
grade links and their passback attempts, LMS contexts and their members' enrolments."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, delete, func, select, union
from sqlalchemy.orm import Session

from app.core.names import email_key
from app.models import (
    ApiToken,
    EnrolmentState,
    LtiAccount,
    LtiCacheEntry,
    LtiContext,
    LtiEnrolment,
    LtiGradeLink,
    LtiKey,
    LtiPassbackAttempt,
    LtiPlatform,
    PassbackState,
    SignupLink,
    Submission,
    SyncState,
    User,
    WorkScope,
)
from app.store._dialect import insert_for

# --- platforms ---------------------------------------------------------------------------------


def add_platform(
    *,
    session: Session,
    issuer: str,
    client_id: str,
    deployment_ids: Sequence[str],
    jwks_url: str,
    auth_login_url: str,
    token_url: str,
    match_email: bool = False,
) -> LtiPlatform:
    platform = LtiPlatform(
        issuer=issuer,
        client_id=client_id,
        deployment_ids=list(deployment_ids),
        jwks_url=jwks_url,
        auth_login_url=auth_login_url,
        token_url=token_url,
        match_email=match_email,
    )
    session.add(platform)
    session.flush()
    return platform


def get_platform(*, session: Session, issuer: str, client_id: str) -> LtiPlatform | None:
    query = select(LtiPlatform).where(
        LtiPlatform.issuer == issuer, LtiPlatform.client_id == client_id
    )
    return session.scalars(query).one_or_none()


def get_platform_by_id(*, session: Session, platform_id: int) -> LtiPlatform | None:
    return session.get(LtiPlatform, platform_id)


def platforms_of_issuer(*, session: Session, issuer: str) -> list[LtiPlatform]:
    query = select(LtiPlatform).where(LtiPlatform.issuer == issuer).order_by(LtiPlatform.id)
    return list(session.scalars(query))


def list_platforms(*, session: Session) -> list[LtiPlatform]:
    return list(session.scalars(select(LtiPlatform).order_by(LtiPlatform.id)))


# --- the tool's keys ---------------------------------------------------------------------------


def add_key(*, session: Session, private_pem: str, public_pem: str) -> LtiKey:
    key = LtiKey(private_pem=private_pem, public_pem=public_pem)
    session.add(key)
    session.flush()
    return key


def newest_keys(*, session: Session, limit: int) -> list[LtiKey]:
    query = select(LtiKey).order_by(LtiKey.id.desc()).limit(limit)
    return list(session.scalars(query))


# --- the launch cache --------------------------------------------------------------------------


def cache_get(*, session: Session, key: str, now: datetime) -> Any:
    entry = session.get(LtiCacheEntry, key)
    if entry is None or entry.expires_at <= now:
        return None
    return entry.value


def cache_set(
    *, session: Session, key: str, value: Any, now: datetime, expires_at: datetime
) -> None:
    """Set ``key`` (replacing what it held); expired entries are deleted on the way."""
    session.execute(
        delete(LtiCacheEntry).where((LtiCacheEntry.key == key) | (LtiCacheEntry.expires_at <= now))
    )
    session.add(LtiCacheEntry(key=key, value=value, expires_at=expires_at))
    session.flush()


def cache_take(*, session: Session, key: str, now: datetime) -> bool:
    """Delete ``key``; whether it was there and live. Of two transactions taking the same key,
    one deletes the row and the other finds none (a nonce is used once)."""
    deleted = session.execute(
        delete(LtiCacheEntry).where(LtiCacheEntry.key == key, LtiCacheEntry.expires_at > now)
    )
    return int(deleted.rowcount) == 1  # type: ignore[attr-defined]


# --- LMS users ---------------------------------------------------------------------------------


def linked_user(*, session: Session, platform: LtiPlatform, subject: str) -> User | None:
    query = select(LtiAccount).where(
        LtiAccount.platform_id == platform.id, LtiAccount.subject == subject
    )
    link = session.scalars(query).one_or_none()
    return link.user if link is not None else None


def users_with_email(*, session: Session, email: str) -> list[User]:
    """Every account with that e-mail address, whatever its case, the oldest first."""
    query = select(User).where(User.email_key == email_key(email)).order_by(User.id)
    return list(session.scalars(query))


def linked_user_ids(*, session: Session, user_ids: Sequence[int]) -> set[int]:
    """Which of the users an LMS user (of any platform) is linked to."""
    query = select(LtiAccount.user_id).where(LtiAccount.user_id.in_(user_ids))
    return set(session.scalars(query))


def used_user_ids(*, session: Session, user_ids: Sequence[int]) -> set[int]:
    """Which of the users someone has used: a password set, a submission, an API token (even
    revoked), a sign-up link used, or an LMS user linked."""
    ids = list(user_ids)
    queries = [
        select(User.id).where(User.id.in_(ids), User.password_hash.is_not(None)),
        select(Submission.user_id).where(Submission.user_id.in_(ids)),
        select(ApiToken.user_id).where(ApiToken.user_id.in_(ids)),
        select(SignupLink.user_id).where(
            SignupLink.user_id.in_(ids), SignupLink.used_at.is_not(None)
        ),
        select(LtiAccount.user_id).where(LtiAccount.user_id.in_(ids)),
    ]
    return set(session.scalars(union(*queries)))


def link_user(*, session: Session, platform: LtiPlatform, subject: str, user: User) -> None:
    session.add(LtiAccount(platform_id=platform.id, subject=subject, user_id=user.id))
    session.flush()


# --- grade links and passbacks -----------------------------------------------------------------


def find_grade_link(
    *, session: Session, platform: LtiPlatform, resource_link_id: str, user: User
) -> LtiGradeLink | None:
    query = select(LtiGradeLink).where(
        LtiGradeLink.platform_id == platform.id,
        LtiGradeLink.resource_link_id == resource_link_id,
        LtiGradeLink.user_id == user.id,
    )
    return session.scalars(query).one_or_none()


def save_grade_link(
    *,
    session: Session,
    platform: LtiPlatform,
    resource_link_id: str,
    user: User,
    subject: str,
    scope: WorkScope,
    target: str,
    lineitem: str,
    lineitems: str,
    scopes: Sequence[str],
    now: datetime,
) -> LtiGradeLink:
    """The link of this launch, made or updated (its passback state is kept)."""
    link = find_grade_link(
        session=session, platform=platform, resource_link_id=resource_link_id, user=user
    )
    if link is None:
        link = LtiGradeLink(
            platform_id=platform.id, resource_link_id=resource_link_id, user_id=user.id
        )
        session.add(link)
    link.subject, link.scope, link.target = subject, scope, target
    link.lineitem, link.lineitems, link.scopes = lineitem, lineitems, list(scopes)
    link.updated_at = now
    session.flush()
    return link


def get_grade_link(*, session: Session, link_id: int) -> LtiGradeLink | None:
    return session.get(LtiGradeLink, link_id)


# Built once: every stored result asks it (app.services.lti.passback.request), and building
# the statement per call cost more than running it (docs/performance.md, issue 44).
_LINKS_OF_USER = (
    select(LtiGradeLink)
    .where(LtiGradeLink.user_id == bindparam("user_id"))
    .order_by(LtiGradeLink.id)
)


def grade_links_of_user(*, session: Session, user_id: int) -> list[LtiGradeLink]:
    return list(session.scalars(_LINKS_OF_USER, {"user_id": user_id}))


def list_grade_links(*, session: Session, state: PassbackState | None = None) -> list[LtiGradeLink]:
    """Every grade link (of one state), the latest changed first."""
    query = select(LtiGradeLink).order_by(LtiGradeLink.updated_at.desc(), LtiGradeLink.id.desc())
    if state is not None:
        query = query.where(LtiGradeLink.state == state)
    return list(session.scalars(query))


def add_attempt(
    *,
    session: Session,
    link: LtiGradeLink,
    sent: bool,
    score_given: float,
    score_maximum: float,
    error: str,
    now: datetime,
) -> None:
    session.add(
        LtiPassbackAttempt(
            link_id=link.id,
            at=now,
            sent=sent,
            score_given=score_given,
            score_maximum=score_maximum,
            error=error,
        )
    )
    session.flush()


def attempts_of(*, session: Session, link_id: int) -> list[LtiPassbackAttempt]:
    query = (
        select(LtiPassbackAttempt)
        .where(LtiPassbackAttempt.link_id == link_id)
        .order_by(LtiPassbackAttempt.id)
    )
    return list(session.scalars(query))


# --- LMS contexts and enrolments ---------------------------------------------------------------


def save_context(
    *,
    session: Session,
    platform: LtiPlatform,
    context_id: str,
    title: str,
    label: str,
    memberships_url: str,
) -> LtiContext:
    """The platform's context, made or updated; an empty ``memberships_url`` keeps the one an
    earlier launch gave. Two first launches from one context at once make one row."""
    session.execute(
        insert_for(session)(LtiContext)
        .values(platform_id=platform.id, context_id=context_id)
        .on_conflict_do_nothing(index_elements=["platform_id", "context_id"])
    )
    query = select(LtiContext).where(
        LtiContext.platform_id == platform.id, LtiContext.context_id == context_id
    )
    context = session.scalars(query).one()
    context.title, context.label = title, label
    if memberships_url:
        context.memberships_url = memberships_url
    session.flush()
    return context


def get_context(*, session: Session, context_id: int) -> LtiContext | None:
    return session.get(LtiContext, context_id)


def list_contexts(*, session: Session) -> list[LtiContext]:
    return list(session.scalars(select(LtiContext).order_by(LtiContext.id)))


def set_context_section(*, session: Session, context: LtiContext, section: str | None) -> None:
    context.section = section
    session.flush()


def record_sync(
    *,
    session: Session,
    context: LtiContext,
    at: datetime,
    counts: tuple[int, int, int, int] = (0, 0, 0, 0),
    error: str = "",
) -> None:
    """A roster synchronisation's outcome: (added, updated, unchanged, dropped), or its error."""
    context.synced_at = at
    context.sync_state = SyncState.FAILED if error else SyncState.SUCCEEDED
    context.sync_added, context.sync_updated, context.sync_unchanged, context.sync_dropped = counts
    context.sync_error = error
    session.flush()


def set_enrolment(
    *, session: Session, context: LtiContext, user: User, state: EnrolmentState, now: datetime
) -> EnrolmentState | None:
    """The user's enrolment in the context set to ``state``; the state it had before (None:
    it is new). ``changed_at`` moves only when the state does."""
    inserted = session.execute(
        insert_for(session)(LtiEnrolment)
        .values(context_id=context.id, user_id=user.id, state=state, changed_at=now)
        .on_conflict_do_nothing(index_elements=["context_id", "user_id"])
        .returning(LtiEnrolment.id)
    ).first()
    if inserted is not None:
        return None
    query = select(LtiEnrolment).where(
        LtiEnrolment.context_id == context.id, LtiEnrolment.user_id == user.id
    )
    enrolment = session.scalars(query).one()
    before = enrolment.state
    if before is not state:
        enrolment.state, enrolment.changed_at = state, now
        session.flush()
    return before


def drop_others(
    *, session: Session, context: LtiContext, kept_user_ids: set[int], now: datetime
) -> list[User]:
    """Mark every active enrolment of the context but those of ``kept_user_ids`` dropped; their
    users."""
    query = select(LtiEnrolment).where(
        LtiEnrolment.context_id == context.id, LtiEnrolment.state == EnrolmentState.ACTIVE
    )
    dropped = [e for e in session.scalars(query) if e.user_id not in kept_user_ids]
    for enrolment in dropped:
        enrolment.state, enrolment.changed_at = EnrolmentState.DROPPED, now
    session.flush()
    return [e.user for e in dropped]


def dropped_user_ids(*, session: Session, user_ids: Sequence[int]) -> set[int]:
    """Which of the users are enrolled in LMS contexts and active in none of them."""
    enrolled = select(LtiEnrolment.user_id).where(LtiEnrolment.user_id.in_(user_ids))
    active = enrolled.where(LtiEnrolment.state == EnrolmentState.ACTIVE)
    return set(session.scalars(enrolled)) - set(session.scalars(active))


def enrolled_users(*, session: Session, context: LtiContext, state: EnrolmentState) -> list[User]:
    query = (
        select(User)
        .join(LtiEnrolment, LtiEnrolment.user_id == User.id)
        .where(LtiEnrolment.context_id == context.id, LtiEnrolment.state == state)
        .order_by(User.name)
    )
    return list(session.scalars(query))


def enrolment_counts(*, session: Session) -> dict[tuple[int, EnrolmentState], int]:
    """How many enrolments each context has in each state."""
    query = select(LtiEnrolment.context_id, LtiEnrolment.state, func.count()).group_by(
        LtiEnrolment.context_id, LtiEnrolment.state
    )
    return {(context_id, state): count for context_id, state, count in session.execute(query)}
