"""Sign in, sign up, sign out, and the account page (API tokens: create, list, revoke; the
password: change it); the work is in app/services/accounts.py."""

from __future__ import annotations

import logging
from math import ceil
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, Request, Response, status
from fastapi.responses import RedirectResponse
from markupsafe import Markup

from app.api.deps import SessionDep, SettingsDep
from app.core.config import Settings
from app.core.names import (
    MAX_PASSWORD,
    MIN_PASSWORD,
    InvalidName,
    InvalidPassword,
    PasswordProblem,
)
from app.models import User
from app.services import accounts
from app.services.accounts import (
    AccountDisabled,
    HashingBusy,
    HashSlots,
    NameTaken,
    WrongPassword,
)
from app.services.auth import end_session, start_session
from app.services.throttle import Throttled
from app.web import i18n
from app.web.auth import csrf_ok, write_session
from app.web.client_files import ClientKind, client_files
from app.web.deps import CsrfForm, UserDep, WebContext, WebDep, check_csrf
from app.web.errors import WebRoute
from app.web.templating import render

logger = logging.getLogger(__name__)
router = APIRouter(route_class=WebRoute, include_in_schema=False)

FormStr = Annotated[str, Form()]
PASSWORD_PROBLEMS = {
    PasswordProblem.TOO_SHORT: i18n.N_("Choose a password of at least {count} characters."),
    PasswordProblem.TOO_LONG: i18n.N_("Choose a password of at most {count} characters."),
    PasswordProblem.BLANK: i18n.N_("Choose a password that is not only spaces."),
}


def get_hash_slots(request: Request) -> HashSlots:
    slots: HashSlots = request.app.state.hash_slots
    return slots


HashSlotsDep = Annotated[HashSlots, Depends(get_hash_slots)]


def safe_next(url: str | None) -> str:
    """Only same-site paths: ``/learn/x`` yes, ``//evil.example`` or ``https://…`` no."""
    if not url or not url.startswith("/") or url.startswith("//") or "\\" in url:
        return "/"
    return url


def client_address(request: Request) -> str:
    """The client's address as uvicorn reports it (proxies: ``--forwarded-allow-ips``)."""
    return request.client.host if request.client else "?"


def signed_in(
    request: Request, web: WebContext, db: SessionDep, user: User, next_url: str
) -> Response:
    web.session.sign_in(start_session(session=db, user=user))
    response = RedirectResponse(safe_next(next_url), status_code=status.HTTP_303_SEE_OTHER)
    write_session(response, request, web.settings, web.session)
    return response


def _refused(
    request: Request,
    template: str,
    context: dict[str, Any],
    error: Markup,
    code: int = status.HTTP_400_BAD_REQUEST,
) -> Response:
    return render(request, template, context | {"error": error}, status_code=code)


def _throttled(
    request: Request,
    template: str,
    context: dict[str, Any],
    say: i18n.Translate,
    refusal: Throttled,
) -> Response:
    if isinstance(refusal, HashingBusy):
        error = say("The server is busy. Try again in a few seconds.")
    elif template == "signup.html":
        error = say(
            "Too many sign-ups from your network. Try again in {minutes} minute(s).",
            minutes=ceil(refusal.retry_after_s / 60),
        )
    else:
        error = say(
            "Too many failed attempts. Try again in {minutes} minute(s).",
            minutes=ceil(refusal.retry_after_s / 60),
        )
    response = _refused(request, template, context, error, status.HTTP_429_TOO_MANY_REQUESTS)
    response.headers["Retry-After"] = str(refusal.retry_after_s)
    return response


@router.get("/login")
def login_page(request: Request, web: WebDep, next: str = "/", expired: bool = False) -> Response:
    if web.user is not None:
        return RedirectResponse(safe_next(next), status_code=status.HTTP_303_SEE_OTHER)
    return render(
        request,
        "login.html",
        {"next_url": safe_next(next), "username": "", "expired": expired or web.session.expired},
    )


@router.post("/login")
def login(
    request: Request,
    web: WebDep,
    db: SessionDep,
    slots: HashSlotsDep,
    csrf_token: CsrfForm = "",
    username: FormStr = "",
    password: FormStr = "",
    next: FormStr = "/",
) -> Response:
    context = {"next_url": safe_next(next), "username": username.strip()[:64]}
    say = i18n.translator(i18n.preferred_language(request))
    if not csrf_ok(web.session, csrf_token):
        return _refused(
            request,
            "login.html",
            context,
            say("This form expired (or cookies are blocked). Please sign in again."),
        )
    user = checked_sign_in(request, web, db, slots, "login.html", context, username, password)
    if isinstance(user, Response):
        return user
    logger.info("web.login", extra={"user_id": user.id})
    return signed_in(request, web, db, user, next)


def checked_sign_in(
    request: Request,
    web: WebContext,
    db: SessionDep,
    slots: HashSlots,
    template: str,
    context: dict[str, Any],
    username: str,
    password: str,
) -> User | Response:
    """The account whose password was given, else ``template`` again saying why (throttled,
    disabled, wrong); the sign-in page's check, and the LMS's link page's."""
    say = i18n.translator(i18n.preferred_language(request))
    if not username.strip() or not password:
        return _refused(request, template, context, say("Enter your username and your password."))
    try:
        user = accounts.authenticate(
            session=db,
            settings=web.settings,
            slots=slots,
            address=client_address(request),
            name=username[:256],
            password=password,
        )
    except Throttled as refusal:
        return _throttled(request, template, context, say, refusal)
    except AccountDisabled:
        logger.info("web.login_disabled")
        return _refused(
            request,
            template,
            context,
            say(
                "Your account is disabled: you cannot sign in or use your API tokens. Ask your instructor to enable it."  # noqa: E501
            ),
            status.HTTP_403_FORBIDDEN,
        )
    if user is None:
        db.commit()  # the failure counts even if rendering fails
        logger.info("web.login_failed")
        return _refused(request, template, context, say("Wrong username or password."))
    return user


def password_problem(say: i18n.Translate, problem: InvalidPassword) -> Markup:
    """What is wrong with a new password, in the reader's language."""
    count = MAX_PASSWORD if problem.problem is PasswordProblem.TOO_LONG else MIN_PASSWORD
    return say(PASSWORD_PROBLEMS[problem.problem], count=count)


def _signup_problem(say: i18n.Translate, problem: Exception, username: str) -> Markup:
    if isinstance(problem, InvalidPassword):
        return password_problem(say, problem)
    if isinstance(problem, NameTaken):
        return say("The username {name} is taken; choose another.", name=repr(username))
    return say("Choose a username of 2–32 letters, digits, dots, dashes or underscores.")


@router.get("/signup")
def signup_page(request: Request, web: WebDep, next: str = "/") -> Response:
    code = status.HTTP_200_OK if web.signup_open else status.HTTP_403_FORBIDDEN
    return render(
        request,
        "signup.html",
        {"next_url": safe_next(next), "username": "", "min_password": MIN_PASSWORD},
        status_code=code,
    )


@router.post("/signup")
def signup(
    request: Request,
    web: WebDep,
    db: SessionDep,
    slots: HashSlotsDep,
    csrf_token: CsrfForm = "",
    username: FormStr = "",
    password: FormStr = "",
    password2: FormStr = "",
    next: FormStr = "/",
) -> Response:
    context = {
        "next_url": safe_next(next),
        "username": username.strip()[:64],
        "min_password": MIN_PASSWORD,
    }
    say = i18n.translator(i18n.preferred_language(request))
    if not web.signup_open:
        return render(request, "signup.html", context, status_code=status.HTTP_403_FORBIDDEN)
    if not csrf_ok(web.session, csrf_token):
        return _refused(
            request,
            "signup.html",
            context,
            say("This form expired (or cookies are blocked). Please try again."),
        )
    if password != password2:
        return _refused(request, "signup.html", context, say("The two passwords differ."))
    try:
        user = accounts.sign_up(
            session=db,
            settings=web.settings,
            slots=slots,
            address=client_address(request),
            name=username,
            password=password,
        )
    except Throttled as refusal:
        return _throttled(request, "signup.html", context, say, refusal)
    except (InvalidName, InvalidPassword, NameTaken) as problem:
        return _refused(
            request, "signup.html", context, _signup_problem(say, problem, username.strip())
        )
    logger.info("web.signup", extra={"user_id": user.id})
    return signed_in(request, web, db, user, next)


@router.post("/logout")
def logout(request: Request, web: WebDep, db: SessionDep, csrf_token: CsrfForm = "") -> Response:
    check_csrf(web, csrf_token)
    if web.session.secret is not None:
        end_session(session=db, secret=web.session.secret)
    web.session.sign_out()
    response = RedirectResponse("/", status_code=status.HTTP_303_SEE_OTHER)
    write_session(response, request, web.settings, web.session)
    return response


def _account_context(
    request: Request, db: SessionDep, user: User, settings: Settings
) -> dict[str, Any]:
    return {
        "nav": "account",
        "tokens": accounts.active_tokens(session=db, user=user),
        "new_token": None,
        "server_url": str(request.base_url).rstrip("/"),
        "min_password": MIN_PASSWORD,
        "clients": client_files(settings.clients_dir),
        "ClientKind": ClientKind,
    }


def _account_page(
    request: Request,
    db: SessionDep,
    user: User,
    settings: Settings,
    extra: dict[str, Any] | None = None,
    code: int = status.HTTP_200_OK,
) -> Response:
    context = _account_context(request, db, user, settings) | (extra or {})
    return render(request, "account.html", context, status_code=code)


@router.get("/account")
def account(request: Request, user: UserDep, db: SessionDep, settings: SettingsDep) -> Response:
    return _account_page(request, db, user, settings)


@router.post("/account/token")
def new_token(
    request: Request, web: WebDep, user: UserDep, db: SessionDep, csrf_token: CsrfForm = ""
) -> Response:
    check_csrf(web, csrf_token)
    _, token = accounts.issue_token(session=db, user=user)
    db.commit()
    return _account_page(request, db, user, web.settings, {"new_token": token})


@router.post("/account/tokens/{token_id}/revoke")
def revoke_token(
    request: Request,
    web: WebDep,
    user: UserDep,
    db: SessionDep,
    token_id: int,
    csrf_token: CsrfForm = "",
) -> Response:
    check_csrf(web, csrf_token)
    say = i18n.translator(i18n.preferred_language(request))
    if not accounts.revoke_token(session=db, user=user, token_id=token_id):
        return _account_page(
            request,
            db,
            user,
            web.settings,
            {"token_error": say("That token is already revoked (or not yours).")},
            status.HTTP_404_NOT_FOUND,
        )
    db.commit()
    logger.info("web.token_revoked", extra={"user_id": user.id, "token_id": token_id})
    return _account_page(
        request,
        db,
        user,
        web.settings,
        {"token_done": say("The token was revoked: programs using it are refused from now on.")},
    )


@router.post("/account/password")
def change_password(
    request: Request,
    web: WebDep,
    user: UserDep,
    db: SessionDep,
    slots: HashSlotsDep,
    csrf_token: CsrfForm = "",
    current_password: FormStr = "",
    password: FormStr = "",
    password2: FormStr = "",
) -> Response:
    """A new password for the signed-in user; their other browsers are signed out, this one
    stays signed in (with a new session)."""
    check_csrf(web, csrf_token)
    say = i18n.translator(i18n.preferred_language(request))
    context = _account_context(request, db, user, web.settings)
    if password != password2:
        return _refused(request, "account.html", context, say("The two new passwords differ."))
    try:
        accounts.change_password(
            session=db,
            settings=web.settings,
            slots=slots,
            address=client_address(request),
            user=user,
            current=current_password,
            new=password,
        )
    except Throttled as refusal:
        return _throttled(request, "account.html", context, say, refusal)
    except WrongPassword:
        db.commit()  # the failure counts even if rendering fails
        return _refused(
            request,
            "account.html",
            context,
            say("Your current password is not right; nothing was changed."),
        )
    except InvalidPassword as problem:
        return _refused(request, "account.html", context, password_problem(say, problem))
    web.session.sign_in(start_session(session=db, user=user))
    db.commit()
    logger.info("web.password_changed", extra={"user_id": user.id})
    return _account_page(
        request,
        db,
        user,
        web.settings,
        {
            "password_done": say(
                "Your password was changed. Your other browsers are signed out; your API tokens keep working."  # noqa: E501
            )
        },
    )
