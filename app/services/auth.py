"""Who a request is: a Bearer API token or a signed-in web session, checked in the database.

Web sessions live in the database (``web_sessions``): the cookie carries a random secret and
the row its SHA-256, so deleting rows ends sessions at once. The cookie is also signed with a
key that is ``NUMJUDGE_SECRET_KEY`` when set, else one generated on first start and kept in the
database (``service_secrets``), so no key written anywhere in the repository works.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta
from functools import lru_cache

from fastapi import HTTPException, status
from sqlalchemy.orm import Session

from app.core.config import Settings
from app.core.db import session_scope
from app.core.security import hash_token
from app.models import User, utcnow
from app.store import accounts as account_store

SESSION_LIFETIME = timedelta(days=7)
"""A session unused this long is over (the cookie carries the same age limit)."""
SESSION_TOUCH_PERIOD = timedelta(hours=1)
SIGNING_KEY_NAME = "session-signing-key"
ACCOUNT_DISABLED = (
    "This account is disabled: its tokens and sign-ins are refused until an instructor "
    "enables it again"
)


@dataclass(frozen=True)
class Credentials:
    """What the request offers to prove who it is; resolved against the database later."""

    token: str | None
    session_secret: str | None
    authorization_header: bool


def not_authenticated(credentials: Credentials) -> HTTPException:
    detail = (
        "Authorization header is not a Bearer token; send 'Authorization: Bearer <token>'"
        if credentials.authorization_header
        else "Not authenticated: send 'Authorization: Bearer <token>' with a token from "
        "your account page (/account), or sign in"
    )
    return HTTPException(
        status.HTTP_401_UNAUTHORIZED, detail=detail, headers={"WWW-Authenticate": "Bearer"}
    )


def resolve_user(
    *, session: Session, credentials: Credentials, required: bool = True
) -> User | None:
    """The user of a Bearer token, else of the web session; 401 (or None) when there is none."""
    if credentials.token is not None:
        user = account_store.get_user_by_token(session=session, token=credentials.token)
        session.commit()  # end the write (last use) now: routes may write in other sessions
        if user is None:
            raise HTTPException(
                status.HTTP_401_UNAUTHORIZED,
                detail="Invalid, expired or revoked API token",
                headers={"WWW-Authenticate": "Bearer"},
            )
        if not user.is_active:
            raise HTTPException(
                status.HTTP_401_UNAUTHORIZED,
                detail=ACCOUNT_DISABLED,
                headers={"WWW-Authenticate": "Bearer"},
            )
        return user
    user = (
        session_user(session=session, secret=credentials.session_secret)
        if credentials.session_secret is not None
        else None
    )
    if user is None and required:
        raise not_authenticated(credentials)
    return user


def signing_key(settings: Settings) -> str:
    """The key that signs session cookies: the configured one, else the stored random one."""
    if settings.secret_key is not None:
        return settings.secret_key.get_secret_value()
    return _stored_signing_key(settings.database_url)


@lru_cache(maxsize=16)
def _stored_signing_key(database_url: str) -> str:
    with session_scope(database_url) as session:
        return account_store.get_or_create_secret(
            session=session, name=SIGNING_KEY_NAME, value=secrets.token_urlsafe(48)
        )


def start_session(*, session: Session, user: User) -> str:
    """A new signed-in session for ``user``; returns the secret the cookie will carry.

    Sessions unused for ``SESSION_LIFETIME`` are deleted on the way.
    """
    account_store.delete_web_sessions(session=session, seen_before=utcnow() - SESSION_LIFETIME)
    secret = secrets.token_urlsafe(32)
    account_store.create_web_session(session=session, user=user, id_hash=hash_token(secret))
    return secret


def session_user(*, session: Session, secret: str) -> User | None:
    """The active user of a live session (its last use noted at most hourly), else None."""
    now = utcnow()
    record = account_store.get_web_session(
        session=session, id_hash=hash_token(secret), seen_after=now - SESSION_LIFETIME
    )
    if record is None or not record.user.is_active:
        return None
    if now - record.last_seen_at > SESSION_TOUCH_PERIOD:
        account_store.touch_web_session(session=session, record=record, seen_at=now)
        # End the write now, as for a token's last use: the route may hash a password next,
        # and no transaction stays open through a hash (app/services/accounts.py).
        session.commit()
    return record.user


def end_session(*, session: Session, secret: str) -> None:
    account_store.delete_web_sessions(session=session, id_hash=hash_token(secret))


def end_all_sessions(*, session: Session, user: User) -> int:
    """Sign ``user`` out of every browser at once; the number of sessions ended."""
    return account_store.delete_web_sessions(session=session, user_id=user.id)
