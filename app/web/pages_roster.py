"""The roster page (import learners, see who joined; a new link, a password reset, disable or
enable one learner, each confirmed first) and ``/join/{token}`` (a learner's one-time sign-up
link); the work is in app/services/roster.py."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from math import ceil
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Form, Request, Response, status
from fastapi.responses import RedirectResponse
from markupsafe import Markup

from app.api.deps import SessionDep
from app.core.config import Settings
from app.core.names import MIN_PASSWORD, InvalidPassword
from app.models import MailState, User, utcnow
from app.services import invitations, roster
from app.services.accounts import HashingBusy
from app.services.roster import LineProblem, LinkState, LinkUsed, Problem, RosterAction
from app.services.throttle import Throttled
from app.web import i18n
from app.web.auth import csrf_ok
from app.web.deps import CsrfForm, InstructorDep, WebDep, check_csrf
from app.web.errors import PageError, WebRoute
from app.web.i18n import N_
from app.web.pages_account import HashSlotsDep, client_address, password_problem, signed_in
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
    LinkState.DISABLED: N_(
        "Your account is disabled, so this link cannot be used now. Ask your instructor to enable it."  # noqa: E501
    ),
}

GONE_STATUS = {
    LinkState.UNKNOWN: status.HTTP_404_NOT_FOUND,
    LinkState.USED: status.HTTP_410_GONE,
    LinkState.EXPIRED: status.HTTP_410_GONE,
    LinkState.DISABLED: status.HTTP_403_FORBIDDEN,
}


@dataclass(frozen=True)
class ActionTexts:
    """The roster's words for one action: its button in the table, the question and what it
    does (the confirmation page), its confirming button, and what was done (after it)."""

    label: str
    question: str
    effect: str
    confirm: str
    done: str


ACTION_TEXTS = {
    RosterAction.NEW_LINK: ActionTexts(
        N_("New link"),
        N_("Make a new sign-up link for {learner}?"),
        N_(
            "Their earlier link stops working at once. The new one is shown only once, on the next page, and works for {days} days."  # noqa: E501
        ),
        N_("Make a new link"),
        N_(
            "{instructor} made a new sign-up link for {learner}; their earlier link no longer works. Hand it to them now: it is shown only this once and works for {days} days."  # noqa: E501
        ),
    ),
    RosterAction.RESET_PASSWORD: ActionTexts(
        N_("Reset password"),
        N_("Reset the password of {learner}?"),
        N_(
            "Their password stops working at once and they are signed out of every browser. You get a one-time link (it works for {days} days) with which they choose a new password. Their API tokens keep working."  # noqa: E501
        ),
        N_("Reset the password"),
        N_(
            "{instructor} reset the password of {learner}: it no longer works and they are signed out everywhere. Hand them this link to choose a new one: it is shown only this once and works for {days} days."  # noqa: E501
        ),
    ),
    RosterAction.DISABLE: ActionTexts(
        N_("Disable"),
        N_("Disable the account of {learner}?"),
        N_(
            "They are signed out at once, cannot sign in, and their API tokens are refused; both tell them the account is disabled. Their submissions and scores stay in the gradebooks. You can enable the account again."  # noqa: E501
        ),
        N_("Disable the account"),
        N_(
            "{instructor} disabled the account of {learner}: they are signed out, cannot sign in, and their API tokens are refused. Their work is kept."  # noqa: E501
        ),
    ),
    RosterAction.ADD_TO_GRADEBOOK: ActionTexts(
        N_("Add to the gradebook"),
        N_("Add {learner} to the gradebooks?"),
        N_(
            "They signed up on their own after the course had a roster, so the gradebooks, their CSV, the archive, the class view and the LMS leave them out. Once added, their work counts like every enrolled learner's, from their first submission."  # noqa: E501
        ),
        N_("Add to the gradebooks"),
        N_("{instructor} added {learner} to the gradebooks: their work now counts."),
    ),
    RosterAction.ENABLE: ActionTexts(
        N_("Enable"),
        N_("Enable the account of {learner}?"),
        N_("They can sign in and use their API tokens again."),
        N_("Enable the account"),
        N_(
            "{instructor} enabled the account of {learner}: they can sign in and use their API tokens again."  # noqa: E501
        ),
    ),
}


MAIL_TEXTS = {
    MailState.QUEUED: N_("queued"),
    MailState.SENT: N_("e-mailed"),
    MailState.FAILED: N_("not sent"),
}


def _roster_page(
    request: Request,
    db: SessionDep,
    settings: Settings,
    section: str | None,
    extra: dict[str, Any] | None = None,
    code: int = status.HTTP_200_OK,
) -> Response:
    return render(
        request,
        "instructor/roster.html",
        {
            "nav": "roster",
            "mail_texts": MAIL_TEXTS,
            "mail_ready": settings.smtp_host is not None,
            "pending_count": len(invitations.pending_learners(session=db)),
            "entries": roster.roster(session=db, section=section or None),
            "sections": roster.sections(session=db),
            "section": section or "",
            "roster_text": "",
            "problems": [],
            "links": [],
            "max_rows": roster.MAX_ROWS,
            "actions_for": roster.actions_for,
            "action_texts": ACTION_TEXTS,
        }
        | (extra or {}),
        status_code=code,
    )


@router.get("/instructor/roster")
def roster_page(
    request: Request,
    web: WebDep,
    _: InstructorDep,
    db: SessionDep,
    section: str = "",
    sent: int | None = None,
    failed: int | None = None,
) -> Response:
    """The roster; after invitations were sent (``/instructor/roster/invite`` redirects here,
    so a reload sends nothing again), how many were sent and failed."""
    invited = None if sent is None or failed is None else {"sent": sent, "failed": failed}
    return _roster_page(request, db, web.settings, section, {"invited": invited})


@router.post("/instructor/roster/invite")
def roster_invite(
    request: Request,
    web: WebDep,
    instructor: InstructorDep,
    db: SessionDep,
    csrf_token: CsrfForm = "",
) -> Response:
    """E-mail every learner who has not joined and has an address a new sign-up link."""
    check_csrf(web, csrf_token)
    base_url = web.settings.public_url or str(request.base_url)
    try:
        outcomes = invitations.invite(
            session=db,
            settings=web.settings,
            learners=invitations.pending_learners(session=db),
            base_url=base_url,
        )
    except invitations.MailNotConfigured:
        raise PageError(
            status.HTTP_409_CONFLICT,
            N_("No e-mail server"),
            N_("This service has no SMTP server set up, so it cannot e-mail sign-up links."),
        ) from None
    logger.info("web.roster_invite", extra={"instructor_id": instructor.id})
    sent = sum(1 for outcome in outcomes if outcome.state is MailState.SENT)
    failed = sum(1 for outcome in outcomes if outcome.state is MailState.FAILED)
    return RedirectResponse(
        f"/instructor/roster?sent={sent}&failed={failed}#invitations",
        status_code=status.HTTP_303_SEE_OTHER,
    )


@router.post("/instructor/roster")
def roster_import(
    request: Request,
    web: WebDep,
    instructor: InstructorDep,
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
            web.settings,
            None,
            {
                "problems": [(p.line, _problem_text(say, p)) for p in rejected.problems],
                "roster_text": roster_text,
            },
            status.HTTP_400_BAD_REQUEST,
        )
    base_url = str(request.base_url).rstrip("/")
    handle = roster.hand_off(
        session=db, instructor=instructor, links_body=roster.links_csv(issued, base_url)
    )
    db.commit()
    logger.info("web.roster_import", extra={"learners": len(issued)})
    # Post/redirect/get: reloading the links' page shows them again, never imports again.
    return RedirectResponse(
        f"/instructor/roster/imported/{handle}", status_code=status.HTTP_303_SEE_OTHER
    )


@router.get("/instructor/roster/imported/{handle}")
def roster_imported(
    request: Request, web: WebDep, instructor: InstructorDep, db: SessionDep, handle: str
) -> Response:
    """An import's links, for ``roster.HANDOFF_MINUTES`` after it and only to its instructor."""
    body = roster.handed_off(session=db, instructor=instructor, handle=handle)
    if body is None:
        raise PageError(
            status.HTTP_410_GONE,
            N_("These links are no longer shown"),
            N_(
                "An import's sign-up links are shown for {minutes} minutes after it. Make new ones from the roster (New link) or e-mail them (Invite by e-mail)."  # noqa: E501
            ),
            minutes=str(roster.HANDOFF_MINUTES),
        )
    return _roster_page(
        request,
        db,
        web.settings,
        None,
        {
            "links": roster.shown_links(body),
            "links_csv_href": "data:text/csv;charset=utf-8," + quote(body),
            "link_days": web.settings.signup_link_days,
            "handoff_minutes": roster.HANDOFF_MINUTES,
        },
    )


def _learner(db: SessionDep, name: str, action: RosterAction) -> User:
    """The learner an action is for: 404 for no such learner, 409 for an action that does not
    apply to them now (the page was stale: another instructor acted first)."""
    learner = roster.find_learner(session=db, name=name)
    if learner is None:
        raise PageError(
            status.HTTP_404_NOT_FOUND,
            N_("Learner not found"),
            N_("There is no learner {name} on the roster."),
            name=repr(name),
        )
    if action not in roster.actions_for(learner):
        raise PageError(
            status.HTTP_409_CONFLICT,
            N_("Not possible now"),
            N_("This action does not apply to {name} any more: reload the roster."),
            name=repr(learner.name),
        )
    return learner


@router.get("/instructor/roster/{name}/{action}")
def roster_action_page(
    request: Request,
    web: WebDep,
    _: InstructorDep,
    db: SessionDep,
    name: str,
    action: RosterAction,
) -> Response:
    """Ask first: each action is a POST from this page, never a plain link."""
    learner = _learner(db, name, action)
    return render(
        request,
        "instructor/roster_action.html",
        {
            "nav": "roster",
            "learner": learner,
            "action": action,
            "texts": ACTION_TEXTS[action],
            "days": web.settings.signup_link_days,
        },
    )


@router.post("/instructor/roster/{name}/{action}")
def roster_action(
    request: Request,
    web: WebDep,
    instructor: InstructorDep,
    db: SessionDep,
    name: str,
    action: RosterAction,
    csrf_token: CsrfForm = "",
) -> Response:
    check_csrf(web, csrf_token)
    learner = _learner(db, name, action)
    issued = roster.act(session=db, user=learner, action=action, days=web.settings.signup_link_days)
    db.commit()
    logger.info(
        "web.roster_action",
        extra={"action": action.value, "learner_id": learner.id, "instructor_id": instructor.id},
    )
    base_url = str(request.base_url).rstrip("/")
    return _roster_page(
        request,
        db,
        web.settings,
        None,
        {
            "done": ACTION_TEXTS[action].done,
            "done_values": {
                "instructor": instructor.name,
                "learner": learner.name,
                "days": web.settings.signup_link_days,
            },
            "done_at": utcnow(),
            "issued_url": issued.url(base_url) if issued is not None else None,
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
        status_code=GONE_STATUS[state],
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
        return refused(password_problem(say, problem))
    except LinkUsed:
        return _gone(request, LinkState.USED)
    logger.info("web.join", extra={"user_id": user.id})
    return signed_in(request, web, db, user, "/")
