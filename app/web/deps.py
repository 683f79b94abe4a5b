"""Dependencies of the web pages: the session, the signed-in user, the instructor check.

``CatalogDep`` is re-exported from ``app.api.deps`` so pages and the API read one catalog.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Form, Request, status

from app.api.deps import CatalogDep, SessionDep, SettingsDep
from app.core.config import Settings
from app.models import User
from app.services.accounts import signup_is_open
from app.services.auth import session_user
from app.web import auth
from app.web.errors import LoginRequired, PageError
from app.web.i18n import N_

__all__ = [
    "CatalogDep",
    "CsrfForm",
    "InstructorDep",
    "UserDep",
    "WebContext",
    "WebDep",
    "check_csrf",
]


@dataclass
class WebContext:
    """The request's session cookie, settings and signed-in user (None if anonymous), and
    whether self sign-up is open (``accounts.signup_is_open``)."""

    session: auth.WebSession
    settings: Settings
    user: User | None
    signup_open: bool


def get_web_context(request: Request, db: SessionDep, settings: SettingsDep) -> WebContext:
    web_session = auth.read_session(request, settings)
    user = (
        session_user(session=db, secret=web_session.secret)
        if web_session.secret is not None
        else None
    )
    if web_session.secret is not None and user is None:
        web_session.sign_out()  # signed out elsewhere, revoked, disabled or deleted
    web = WebContext(
        session=web_session,
        settings=settings,
        user=user,
        signup_open=signup_is_open(session=db, settings=settings),
    )
    request.state.web = web
    return web


WebDep = Annotated[WebContext, Depends(get_web_context)]


def _next_url(request: Request) -> str:
    return request.url.path + (f"?{request.url.query}" if request.url.query else "")


def require_user(request: Request, web: WebDep) -> User:
    if web.user is None:
        raise LoginRequired(_next_url(request), expired=web.session.expired)
    return web.user


UserDep = Annotated[User, Depends(require_user)]


def require_instructor(user: UserDep) -> User:
    if not user.is_instructor:
        raise PageError(
            status.HTTP_403_FORBIDDEN,
            N_("Instructors only"),
            N_("This page is for instructors. Ask one to give your account the role."),
        )
    return user


InstructorDep = Annotated[User, Depends(require_instructor)]


def check_csrf(web: WebContext, token: str) -> None:
    """Refuse a form whose CSRF token is not this session's."""
    if not auth.csrf_ok(web.session, token):
        raise PageError(
            status.HTTP_400_BAD_REQUEST,
            N_("This form has expired"),
            N_("The page was open too long or your session changed: reload it."),
        )


CsrfForm = Annotated[str, Form()]
"""A form's ``csrf_token`` field (``auth.CSRF_FIELD``): name the parameter ``csrf_token``."""
