"""The web session cookie and its CSRF token.

The cookie is signed and time-stamped (itsdangerous) with the key of ``app/services/auth.py``
(``NUMJUDGE_SECRET_KEY`` or a random key kept in the database); it holds the secret of a
server-side session (none while anonymous; ``web_sessions`` says whose it is, and deleting the row
ends it) and a random CSRF token. Forms send the token as ``csrf_token``;
the page's ``fetch`` calls send it as the ``X-CSRF-Token`` header. The cookie is HttpOnly and
SameSite=Lax, and it expires after ``SESSION_MAX_AGE_S`` without a visit.
"""

from __future__ import annotations

import hmac
import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from fastapi import Request, Response
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from app.core.config import Settings
from app.services.auth import signing_key

logger = logging.getLogger(__name__)

SESSION_COOKIE = "numjudge_session"
CSRF_HEADER = "X-CSRF-Token"
CSRF_FIELD = "csrf_token"
SESSION_MAX_AGE_S = 7 * 24 * 3600
REFRESH_AFTER_S = 3600
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_SALT = "numjudge.web.session"


@dataclass
class WebSession:
    """What the session cookie says; ``dirty`` sessions are written back on the response."""

    secret: str | None = None
    csrf: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    expired: bool = False
    dirty: bool = False

    def sign_in(self, secret: str) -> None:
        """A fresh CSRF token with every sign-in (no session fixation)."""
        self.secret = secret
        self.csrf = secrets.token_urlsafe(32)
        self.expired = False
        self.dirty = True

    def sign_out(self) -> None:
        self.secret = None
        self.csrf = secrets.token_urlsafe(32)
        self.dirty = True


def _serializer(settings: Settings) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(signing_key(settings), salt=_SALT)


def read_session(request: Request, settings: Settings) -> WebSession:
    """The request's session; a new anonymous one (to be written) if there is none or it expired."""
    raw = request.cookies.get(SESSION_COOKIE)
    if not raw:
        return WebSession(dirty=True)
    serializer = _serializer(settings)
    try:
        data, signed_at = serializer.loads(raw, max_age=SESSION_MAX_AGE_S, return_timestamp=True)
    except SignatureExpired:
        return WebSession(expired=True, dirty=True)
    except BadSignature:
        return WebSession(dirty=True)
    session = _from_payload(data)
    if session is None:
        return WebSession(dirty=True)
    session.dirty = time.time() - signed_at.timestamp() > REFRESH_AFTER_S
    return session


def _from_payload(data: Any) -> WebSession | None:
    if not isinstance(data, dict) or not isinstance(data.get("c"), str):
        return None
    secret = data.get("s")
    if secret is not None and not isinstance(secret, str):
        return None
    return WebSession(secret=secret, csrf=data["c"])


def write_session(
    response: Response, request: Request, settings: Settings, session: WebSession
) -> None:
    """Set the signed cookie on ``response``."""
    value = _serializer(settings).dumps({"s": session.secret, "c": session.csrf})
    response.set_cookie(
        SESSION_COOKIE,
        value,
        max_age=SESSION_MAX_AGE_S,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
        path="/",
    )


def csrf_ok(session: WebSession, token: str | None) -> bool:
    """Whether ``token`` is this session's CSRF token (constant-time comparison)."""
    return bool(token) and hmac.compare_digest(session.csrf, str(token))


def session_secret(request: Request, settings: Settings) -> str | None:
    """The web session's secret for API routes (the ``deps.py`` hook), or None.

    Unsafe methods count the cookie only with a matching ``X-CSRF-Token`` header, so another
    site cannot make a learner's browser submit on their behalf.
    """
    session = read_session(request, settings)
    if session.secret is None or session.expired:
        return None
    if request.method not in SAFE_METHODS and not csrf_ok(
        session, request.headers.get(CSRF_HEADER)
    ):
        logger.info("web.csrf_rejected", extra={"path": request.url.path})
        return None
    return session.secret
