"""Sign in, sign up, sign out, and the API-token page."""

from __future__ import annotations

import logging
import re
from math import ceil
from typing import Annotated

from fastapi import APIRouter, Form, Request, Response, status
from fastapi.responses import RedirectResponse
from markupsafe import Markup

from app import crud
from app.api.deps import SessionDep
from app.models import Role
from app.web import i18n
from app.web.auth import CSRF_FIELD, csrf_ok, write_session
from app.web.deps import UserDep, WebContext, WebDep, check_csrf
from app.web.errors import WebRoute
from app.web.templating import render
from app.web.throttle import login_throttle, throttle_key

logger = logging.getLogger(__name__)
router = APIRouter(route_class=WebRoute, include_in_schema=False)

USERNAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{1,31}$")
MIN_PASSWORD = 8
MAX_PASSWORD = 1024
FormStr = Annotated[str, Form()]
CsrfForm = Annotated[str, Form(alias=CSRF_FIELD)]


def safe_next(url: str | None) -> str:
    """Only same-site paths: ``/learn/x`` yes, ``//evil.example`` or ``https://…`` no."""
    if not url or not url.startswith("/") or url.startswith("//") or "\\" in url:
        return "/"
    return url


def _signed_in(request: Request, web: WebContext, user_id: int, next_url: str) -> Response:
    web.session.sign_in(user_id)
    response = RedirectResponse(safe_next(next_url), status_code=status.HTTP_303_SEE_OTHER)
    write_session(response, request, web.settings, web.session)
    return response


@router.get("/login")
def login_page(request: Request, web: WebDep, next: str = "/", expired: bool = False) -> Response:
    if web.user is not None:
        return RedirectResponse(safe_next(next), status_code=status.HTTP_303_SEE_OTHER)
    return render(request, "login.html", {"next_url": safe_next(next), "username": "",
                                          "expired": expired or web.session.expired})


@router.post("/login")
def login(request: Request, web: WebDep, db: SessionDep, csrf_token: CsrfForm = "",
          username: FormStr = "", password: FormStr = "", next: FormStr = "/") -> Response:
    context = {"next_url": safe_next(next), "username": username.strip()[:64]}
    say = i18n.translator(i18n.preferred_language(request))
    if not csrf_ok(web.session, csrf_token):
        return render(request, "login.html", context | {
            "error": say("This form expired (or cookies are blocked). Please sign in again.")},
            status_code=status.HTTP_400_BAD_REQUEST)
    if not username.strip() or not password:
        return render(request, "login.html", context | {
            "error": say("Enter your username and your password.")},
            status_code=status.HTTP_400_BAD_REQUEST)
    key = throttle_key(request.client.host if request.client else None, username)
    wait_s = login_throttle.wait_s(key)
    if wait_s > 0:
        return render(request, "login.html", context | {
            "error": say("Too many failed attempts. Try again in {minutes} minute(s).",
                         minutes=ceil(wait_s / 60))},
            status_code=status.HTTP_429_TOO_MANY_REQUESTS)
    user = crud.authenticate_password(session=db, name=username.strip(),
                                      password=password[:MAX_PASSWORD])
    if user is None:
        login_throttle.failed(key)
        logger.info("web.login_failed")
        return render(request, "login.html", context | {
            "error": say("Wrong username or password.")},
            status_code=status.HTTP_400_BAD_REQUEST)
    login_throttle.succeeded(key)
    logger.info("web.login", extra={"user_id": user.id})
    return _signed_in(request, web, user.id, next)


def _signup_problem(db: SessionDep, say: i18n.Translate, username: str, password: str,
                    password2: str) -> Markup | None:
    if not USERNAME.fullmatch(username):
        return say("Choose a username of 2–32 letters, digits, dots, dashes or underscores.")
    if len(password) < MIN_PASSWORD:
        return say("Choose a password of at least {count} characters.", count=MIN_PASSWORD)
    if len(password) > MAX_PASSWORD:
        return say("Choose a password of at most {count} characters.", count=MAX_PASSWORD)
    if password != password2:
        return say("The two passwords differ.")
    if crud.get_user_by_name(session=db, name=username) is not None:
        return say("The username {name} is taken; choose another.", name=repr(username))
    return None


@router.get("/signup")
def signup_page(request: Request, web: WebDep, next: str = "/") -> Response:
    code = status.HTTP_200_OK if web.settings.signup_open else status.HTTP_403_FORBIDDEN
    return render(request, "signup.html", {"next_url": safe_next(next), "username": "",
                                           "min_password": MIN_PASSWORD}, status_code=code)


@router.post("/signup")
def signup(request: Request, web: WebDep, db: SessionDep, csrf_token: CsrfForm = "",
           username: FormStr = "", password: FormStr = "", password2: FormStr = "",
           next: FormStr = "/") -> Response:
    context = {"next_url": safe_next(next), "username": username.strip()[:64],
               "min_password": MIN_PASSWORD}
    say = i18n.translator(i18n.preferred_language(request))
    if not web.settings.signup_open:
        return render(request, "signup.html", context, status_code=status.HTTP_403_FORBIDDEN)
    if not csrf_ok(web.session, csrf_token):
        return render(request, "signup.html", context | {
            "error": say("This form expired (or cookies are blocked). Please try again.")},
            status_code=status.HTTP_400_BAD_REQUEST)
    username = username.strip()
    problem = _signup_problem(db, say, username, password, password2)
    if problem:
        return render(request, "signup.html", context | {"error": problem},
                      status_code=status.HTTP_400_BAD_REQUEST)
    user = crud.create_user(session=db, name=username, role=Role.LEARNER, password=password)
    db.commit()
    logger.info("web.signup", extra={"user_id": user.id})
    return _signed_in(request, web, user.id, next)


@router.post("/logout")
def logout(request: Request, web: WebDep, csrf_token: CsrfForm = "") -> Response:
    check_csrf(web, csrf_token)
    web.session.sign_out()
    response = RedirectResponse("/", status_code=status.HTTP_303_SEE_OTHER)
    write_session(response, request, web.settings, web.session)
    return response


@router.get("/account")
def account(request: Request, user: UserDep, db: SessionDep) -> Response:
    tokens = [t for t in crud.list_tokens(session=db, user=user) if t.revoked_at is None]
    return render(request, "account.html", {"nav": "account", "tokens": tokens,
                                            "server_url": str(request.base_url).rstrip("/")})


@router.post("/account/token")
def new_token(request: Request, web: WebDep, user: UserDep, db: SessionDep,
              csrf_token: CsrfForm = "") -> Response:
    check_csrf(web, csrf_token)
    _, token = crud.create_token(session=db, user=user)
    db.commit()
    tokens = [t for t in crud.list_tokens(session=db, user=user) if t.revoked_at is None]
    return render(request, "account.html", {"nav": "account", "tokens": tokens,
                                            "new_token": token,
                                            "server_url": str(request.base_url).rstrip("/")})
