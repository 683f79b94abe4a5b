"""LTI 1.3: registered platforms, the tool's key pairs, the launch cache, LMS users' links,
grade links and their passback attempts."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from app.models import (
    LtiAccount,
    LtiCacheEntry,
    LtiGradeLink,
    LtiKey,
    LtiPassbackAttempt,
    LtiPlatform,
    PassbackState,
    User,
    WorkScope,
)

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
) -> LtiPlatform:
    platform = LtiPlatform(
        issuer=issuer,
        client_id=client_id,
        deployment_ids=list(deployment_ids),
        jwks_url=jwks_url,
        auth_login_url=auth_login_url,
        token_url=token_url,
    )
    session.add(platform)
    session.flush()
    return platform


def get_platform(*, session: Session, issuer: str, client_id: str) -> LtiPlatform | None:
    query = select(LtiPlatform).where(
        LtiPlatform.issuer == issuer, LtiPlatform.client_id == client_id
    )
    return session.scalars(query).one_or_none()


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


def unlinked_users_with_email(*, session: Session, email: str) -> list[User]:
    """Accounts with that e-mail address (whatever its case) no LMS user is linked to yet."""
    linked = select(LtiAccount.user_id)
    query = select(User).where(
        func.lower(User.email) == email.strip().lower(), User.id.not_in(linked)
    )
    return list(session.scalars(query))


def link_user(*, session: Session, platform: LtiPlatform, subject: str, user: User) -> None:
    session.add(LtiAccount(platform_id=platform.id, subject=subject, user_id=user.id))
    session.flush()


# --- grade links and passbacks -----------------------------------------------------------------


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
    query = select(LtiGradeLink).where(
        LtiGradeLink.platform_id == platform.id,
        LtiGradeLink.resource_link_id == resource_link_id,
        LtiGradeLink.user_id == user.id,
    )
    link = session.scalars(query).one_or_none()
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


def grade_links_of_user(*, session: Session, user_id: int) -> list[LtiGradeLink]:
    query = select(LtiGradeLink).where(LtiGradeLink.user_id == user_id).order_by(LtiGradeLink.id)
    return list(session.scalars(query))


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
