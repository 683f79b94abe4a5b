"""The roster page (import learners, see who joined) and ``/join/{token}`` (a learner's one-time
sign-up link); the work is in app/services/roster.py."""

from __future__ import annotations

import logging
from math import ceil
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Form, Request, Response, status
from markupsafe import Markup

from app.api.deps import SessionDep
from app.core.names import MAX_PASSWORD, MIN_PASSWORD, InvalidPassword, PasswordProblem
from app.services import roster
from app.services.accounts import HashingBusy
from app.services.roster import LineProblem, LinkState, Problem
from app.services.throttle import Throttled
from app.web import i18n
from app.web.auth import csrf_ok
from app.web.deps import CsrfForm, InstructorDep, WebDep, check_csrf
from app.web.errors import WebRoute
from app.web.i18n import N_
from app.web.pages_account import PASSWORD_PROBLEMS, HashSlotsDep, client_address, signed_in
from app.web.templating import render

logger = logging.getLogger(__name__)
router = APIRouter(route_class=WebRoute, include_in_schema=False)

FormStr = Annotated[str, Form()]
# The page's words for each problem of a line (the CLI prints the enum's own English).
PROBLEM_TEXTS = {
    Problem.EMPTY: N_("The roster is empty: the first line must be the header row."),
    Problem.NO_LEARNERS: N_("The roster has a header row but no learners."),
    Problem.TOO_MANY: N_("More than {limit} learners: import them in parts."),
    Problem.NO_USERNAME: N_("The header row has no <code>username</code> column."),
    Problem.UNKNOWN_COLUMNS: N_(
        "Unknown columns {columns}: the columns are username, display_name, email and section."
    ),
    Problem.REPEATED_COLUMN: N_("The column {column} appears twice."),
    Problem.FIELD_COUNT: N_("{count} fields where the header row has {expected}."),
    Problem.BAD_NAME: N_(
        "{name} is not a valid username: 2–32 letters, digits, dots, dashes or underscores, starting with a letter or digit."  # noqa: E501  (a catalog key: kept whole so the translation test finds it)
    ),
    Problem.DUPLICATE: N_("{name} is also on line {other}."),
    Problem.TAKEN: N_("The username {name} is taken."),
    Problem.BAD_EMAIL: N_("{email} is not an email address."),
    Problem.TOO_LONG: N_("The {column} is longer than {limit} characters."),
}
LINK_GONE = {
    LinkState.UNKNOWN: N_(
        "This sign-up link is not valid: it may be mistyped, or your instructor made a newer one. Ask your instructor for a new link."  # noqa: E501
    ),
    LinkState.USED: N_(
        'This sign-up link was already used. <a href="/login">Sign in</a> with the password you chose, or ask your instructor for a new link.'  # noqa: E501
    ),
    LinkState.EXPIRED: N_("This sign-up link has expired. Ask your instructor for a new link."),
}


def _roster_page(
    request: Request,
    db: SessionDep,
    section: str | None,
    extra: dict[str, Any] | None = None,
    code: int = status.HTTP_200_OK,
) -> Response:
    return render(
        request,
        "instructor/roster.html",
        {
            "nav": "roster",
            "entries": roster.roster(session=db, section=section or None),
            "sections": roster.sections(session=db),
            "section": section or "",
            "roster_text": "",
            "problems": [],
            "links": [],
            "max_rows": roster.MAX_ROWS,
        }
        | (extra or {}),
        status_code=code,
    )


@router.get("/instructor/roster")
def roster_page(request: Request, _: InstructorDep, db: SessionDep, section: str = "") -> Response:
    return _roster_page(request, db, section)


@router.post("/instructor/roster")
def roster_import(
    request: Request,
    web: WebDep,
    _: InstructorDep,
    db: SessionDep,
    csrf_token: CsrfForm = "",
    roster_text: FormStr = "",
) -> Response:
    check_csrf(web, csrf_token)
    try:
        issued = roster.import_roster(
            session=db, text=roster_text, link_days=web.settings.signup_link_days
        )
    except roster.RosterRejected as rejected:
        db.rollback()
        say = i18n.translator(i18n.preferred_language(request))
        return _roster_page(
            request,
            db,
            None,
            {
                "problems": [(p.line, _problem_text(say, p)) for p in rejected.problems],
                "roster_text": roster_text,
            },
            status.HTTP_400_BAD_REQUEST,
        )
    db.commit()
    logger.info("web.roster_import", extra={"learners": len(issued)})
    base_url = str(request.base_url).rstrip("/")
    body = roster.links_csv(issued, base_url)
    return _roster_page(
        request,
        db,
        None,
        {
            "links": [(link, link.url(base_url)) for link in issued],
            "links_csv_href": "data:text/csv;charset=utf-8," + quote(body),
            "link_days": web.settings.signup_link_days,
        },
    )


def _problem_text(say: i18n.Translate, problem: LineProblem) -> Markup:
    return say(PROBLEM_TEXTS[problem.problem], **problem.values)


@router.get("/join/{token}")
def join_page(request: Request, _: WebDep, db: SessionDep, token: str) -> Response:
    link, state = roster.find_link(session=db, token=token)
    if state is not LinkState.VALID or link is None:
        return _gone(request, state)
    return render(
        request, "join.html", {"token": token, "learner": link.user, "min_password": MIN_PASSWORD}
    )


def _gone(request: Request, state: LinkState) -> Response:
    say = i18n.translator(i18n.preferred_language(request))
    return render(
        request,
        "join.html",
        {"gone": say(LINK_GONE[state])},
        status_code=status.HTTP_410_GONE
        if state is not LinkState.UNKNOWN
        else status.HTTP_404_NOT_FOUND,
    )


@router.post("/join/{token}")
def join(
    request: Request,
    web: WebDep,
    db: SessionDep,
    slots: HashSlotsDep,
    token: str,
    csrf_token: CsrfForm = "",
    password: FormStr = "",
    password2: FormStr = "",
) -> Response:
    link, state = roster.find_link(session=db, token=token)
    if state is not LinkState.VALID or link is None:
        return _gone(request, state)
    context = {"token": token, "learner": link.user, "min_password": MIN_PASSWORD}
    say = i18n.translator(i18n.preferred_language(request))

    def refused(error: Any, code: int = status.HTTP_400_BAD_REQUEST) -> Response:
        return render(request, "join.html", context | {"error": error}, status_code=code)

    if not csrf_ok(web.session, csrf_token):
        return refused(say("This form expired (or cookies are blocked). Please try again."))
    if password != password2:
        return refused(say("The two passwords differ."))
    try:
        user = roster.join(
            session=db,
            settings=web.settings,
            slots=slots,
            address=client_address(request),
            link=link,
            password=password,
        )
    except Throttled as refusal:
        response = refused(
            say("The server is busy. Try again in a few seconds.")
            if isinstance(refusal, HashingBusy)
            else say(
                "Too many sign-ups from your network. Try again in {minutes} minute(s).",
                minutes=ceil(refusal.retry_after_s / 60),
            ),
            status.HTTP_429_TOO_MANY_REQUESTS,
        )
        response.headers["Retry-After"] = str(refusal.retry_after_s)
        return response
    except InvalidPassword as problem:
        count = MAX_PASSWORD if problem.problem is PasswordProblem.TOO_LONG else MIN_PASSWORD
        return refused(say(PASSWORD_PROBLEMS[problem.problem], count=count))
    logger.info("web.join", extra={"user_id": user.id})
    return signed_in(request, web, db, user, "/")
