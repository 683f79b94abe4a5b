"""numjudge as an LTI 1.3 tool: the key set, the OIDC login and the launch an LMS calls, the
deep-linking picker and its answer, and the instructors' page of values to paste into the LMS,
with the scores sent to the LMSs' gradebooks (and a resend button) and the LMS contexts (the
section each maps to, and their roster synchronisation); the work is in app/services/lti/.

This module is the FastAPI side of the pylti1p3 adapter: it hands the request's parameters,
cookies and scheme to ``ToolRequest`` and sets the cookies pylti1p3 asked for. The routes are
plain ``def``: pylti1p3 blocks (it fetches the platform's key set with requests).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from enum import StrEnum
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Depends, Form, Request, Response, status
from fastapi.responses import JSONResponse, RedirectResponse
from sqlalchemy.orm import Session

from app.api.deps import RuntimeDep, SessionDep
from app.core.config import Settings
from app.models import PassbackState, SyncState, WorkScope
from app.runtime.context import GradingRuntime
from app.services.auth import signing_key
from app.services.errors import NotFound
from app.services.lti import (
    contexts,
    deep_linking,
    keys,
    linking,
    passback,
    platforms,
    roster_sync,
)
from app.services.lti.adapter import PendingCookie, ToolRequest
from app.services.lti.launch import (
    Launched,
    LaunchRefused,
    LinkOffered,
    PickRequested,
    begin_login,
    complete_launch,
)
from app.web import i18n
from app.web.deps import CatalogDep, CsrfForm, InstructorDep, WebDep, check_csrf
from app.web.errors import (
    PageError,
    WebRoute,
    error_page,
    lms_context_not_found,
    passback_not_found,
)
from app.web.i18n import N_
from app.web.pages_account import HashSlotsDep, checked_sign_in, signed_in
from app.web.templating import content_security_policy, render

logger = logging.getLogger(__name__)

# Not the data words: a verdict's "failed" means a wrong answer.
PASSBACK_STATES = {
    PassbackState.PENDING: N_("waiting to be sent"),
    PassbackState.SENT: N_("sent to the LMS"),
    PassbackState.FAILED: N_("sending failed"),
}
TARGET_KINDS = {
    WorkScope.EXERCISE: N_("exercise"),
    WorkScope.ASSIGNMENT: N_("assignment"),
}
SYNC_STATES = {
    SyncState.SUCCEEDED: N_("synchronised"),
    SyncState.FAILED: N_("synchronisation failed"),
}
router = APIRouter(route_class=WebRoute, include_in_schema=False)


class LinkChoice(StrEnum):
    """The link page's two buttons (``LinkOffered``)."""

    SIGN_IN = "sign-in"  # to the account with the e-mail address, which links it
    NEW = "new"  # a new account for the LMS user


async def form_params(request: Request) -> dict[str, str]:
    """The form's text fields (the LMS posts the login initiation and the launch)."""
    form = await request.form()
    return {key: value for key, value in form.items() if isinstance(value, str)}


FormParams = Annotated[dict[str, str], Depends(form_params)]
PickedItems = Annotated[list[str], Form()]


def base_url(request: Request, settings: Settings) -> str:
    """The tool's address as the LMS knows it: ``NUMJUDGE_PUBLIC_URL``, else the request's."""
    return (settings.public_url or str(request.base_url)).rstrip("/")


def _is_secure(request: Request, settings: Settings) -> bool:
    return urlsplit(base_url(request, settings)).scheme == "https"


def _tool_request(request: Request, settings: Settings, params: dict[str, str]) -> ToolRequest:
    return ToolRequest(params, request.cookies, _is_secure(request, settings))


def _set_cookies(response: Response, cookies: Iterable[PendingCookie], secure: bool) -> None:
    """pylti1p3's state cookie must come back on the platform's cross-site form post: over
    HTTPS it is SameSite=None."""
    for cookie in cookies:
        response.set_cookie(
            cookie.name,
            cookie.value,
            max_age=cookie.max_age,
            path="/",
            httponly=True,
            secure=secure,
            samesite="none" if secure else "lax",
        )


def _refused(exc: LaunchRefused | deep_linking.DeepLinkRefused) -> PageError:
    logger.info("lti.refused", extra={"reason": str(exc)})
    return PageError(
        status.HTTP_400_BAD_REQUEST,
        N_("This launch from your LMS was refused"),
        N_(
            "numjudge could not check this launch: {reason}. Open the activity from your LMS again; if this page comes back, show it to your instructor."  # noqa: E501
        ),
        reason=str(exc),
    )


@router.get("/lti/jwks")
def jwks(db: SessionDep) -> Response:
    return JSONResponse(keys.jwks(session=db))


def _signing_key_first(settings: Settings) -> None:
    """The session cookie's signing key is made on first use, in a database session of its
    own: make it before this request's session writes (the launch cache, the account), as
    SQLite lets one session write at a time."""
    signing_key(settings)


def _login(request: Request, web: WebDep, db: SessionDep, params: dict[str, str]) -> Response:
    settings = web.settings
    _signing_key_first(settings)
    try:
        answer = begin_login(
            session=db,
            request=_tool_request(request, settings, params),
            launch_url=platforms.tool_urls(base_url(request, settings)).launch,
        )
    except LaunchRefused as exc:
        raise _refused(exc) from None
    response = RedirectResponse(answer.location, status_code=status.HTTP_302_FOUND)
    _set_cookies(response, answer.cookies, _is_secure(request, settings))
    return response


@router.get("/lti/login")
def login_by_get(request: Request, web: WebDep, db: SessionDep) -> Response:
    return _login(request, web, db, dict(request.query_params))


@router.post("/lti/login")
def login_by_post(request: Request, web: WebDep, db: SessionDep, params: FormParams) -> Response:
    return _login(request, web, db, params)


@router.post("/lti/launch")
def launch(
    request: Request,
    web: WebDep,
    db: SessionDep,
    runtime: RuntimeDep,
    catalog: CatalogDep,
    params: FormParams,
) -> Response:
    settings = web.settings
    _signing_key_first(settings)
    try:
        launched = complete_launch(
            session=db,
            catalog=catalog,
            request=_tool_request(request, settings, params),
            tool_host=urlsplit(base_url(request, settings)).netloc,
            lang=i18n.preferred_language(request),
        )
    except LaunchRefused as exc:
        return _refusal(request, exc)
    if isinstance(launched, PickRequested):
        logger.info("lti.launch", extra={"user_id": launched.user.id if launched.user else None})
        page = render(request, "lti_deep_link.html", {"picker": launched.picker, "framed": True})
        return _shown_by_lms(page, launched.picker.return_origin)
    if isinstance(launched, LinkOffered):
        logger.info("lti.link_offered")
        response = render(request, "lti_link.html", {"launch_id": launched.launch_id})
        _set_cookies(response, launched.cookies, _is_secure(request, settings))
        return response
    logger.info("lti.launch", extra={"user_id": launched.user.id})
    response = signed_in(request, web, db, launched.user, launched.next_path)
    _set_cookies(response, launched.cookies, _is_secure(request, settings))
    _send_score_due(db, runtime, launched)
    return response


def _send_score_due(db: Session, runtime: GradingRuntime, launched: Launched) -> None:
    """A link first opened when its work is already graded gets its score now, not at the next
    grading."""
    if launched.passback_due is not None:
        db.commit()  # the passback reads the new link in a session of its own
        passback.resend(runtime, link_id=launched.passback_due)


@router.post("/lti/link")
def link_account(
    request: Request,
    web: WebDep,
    db: SessionDep,
    runtime: RuntimeDep,
    catalog: CatalogDep,
    slots: HashSlotsDep,
    csrf_token: CsrfForm = "",
    launch_id: Annotated[str, Form()] = "",
    choice: Annotated[LinkChoice, Form()] = LinkChoice.SIGN_IN,
    username: Annotated[str, Form()] = "",
    password: Annotated[str, Form()] = "",
) -> Response:
    """The choice of the page a launch offers (``LinkOffered``): sign in to the account with the
    LMS user's e-mail address, which links it, or a new account; then the launch ends."""
    settings = web.settings
    check_csrf(web, csrf_token)
    try:
        waiting = linking.pending(
            session=db, request=_tool_request(request, settings, {}), launch_id=launch_id[:128]
        )
    except LaunchRefused as exc:
        raise _refused(exc) from None
    user = None
    if choice is LinkChoice.SIGN_IN:
        context = {"launch_id": waiting.launch_id, "username": username.strip()[:64]}
        signed = checked_sign_in(
            request, web, db, slots, "lti_link.html", context, username, password
        )
        if isinstance(signed, Response):
            return signed
        user = signed
    try:
        launched = linking.link(
            session=db,
            catalog=catalog,
            waiting=waiting,
            user=user,
            tool_host=urlsplit(base_url(request, settings)).netloc,
        )
    except LaunchRefused as exc:
        raise _refused(exc) from None
    logger.info("lti.linked", extra={"user_id": launched.user.id, "choice": choice.value})
    response = signed_in(request, web, db, launched.user, launched.next_path)
    _send_score_due(db, runtime, launched)
    return response


def _shown_by_lms(response: Response, origin: str) -> Response:
    """The LMS shows the deep-linking pages in a frame of its own page, and the reply's form
    posts to it: its origin may do both (and no other site)."""
    response.headers["Content-Security-Policy"] = content_security_policy(
        form_action=f"'self' {origin}", frame_ancestors=f"'self' {origin}"
    )
    return response


def _refusal(request: Request, exc: LaunchRefused | deep_linking.DeepLinkRefused) -> Response:
    """The refusal's page; framed by the LMS that asked, when it is known."""
    if not exc.origin:
        raise _refused(exc)
    return _shown_by_lms(error_page(request, _refused(exc), framed=True), exc.origin)


@router.post("/lti/deep-link")
def deep_link_reply(
    request: Request,
    web: WebDep,
    db: SessionDep,
    catalog: CatalogDep,
    launch_id: Annotated[str, Form()] = "",
    item: PickedItems = [],  # noqa: B006  (FastAPI copies a form's default)
) -> Response:
    """The picked work, as the signed deep-linking response the page posts to the LMS. The
    launch id stands for the instructor (no session cookie: a frame may not send it)."""
    settings = web.settings
    try:
        answer = deep_linking.reply(
            session=db,
            catalog=catalog,
            request=_tool_request(request, settings, {}),
            launch_id=launch_id,
            picked=item,
            base_url=base_url(request, settings),
            lang=i18n.preferred_language(request),
        )
    except deep_linking.DeepLinkRefused as exc:
        return _refusal(request, exc)
    logger.info("lti.deep_link", extra={"links": answer.count})
    page = render(request, "lti_deep_link_reply.html", {"reply": answer, "framed": True})
    return _shown_by_lms(page, answer.return_origin)


def _lti_page(
    request: Request, web: WebDep, db: SessionDep, extra: dict[str, Any] | None = None
) -> Response:
    return render(
        request,
        "instructor/lti.html",
        {
            "urls": platforms.tool_urls(base_url(request, web.settings)),
            "platforms": platforms.list_platforms(session=db),
            "passbacks": passback.passbacks(session=db),
            "passback_states": PASSBACK_STATES,
            "target_kinds": TARGET_KINDS,
            "lms_contexts": contexts.known_contexts(session=db),
            "sync_states": SYNC_STATES,
        }
        | (extra or {}),
    )


@router.get("/instructor/lti")
def lti_page(request: Request, web: WebDep, db: SessionDep, user: InstructorDep) -> Response:
    return _lti_page(request, web, db)


@router.post("/instructor/lti/passbacks/{link_id}/resend")
def resend_passback(
    link_id: int, web: WebDep, runtime: RuntimeDep, _: InstructorDep, csrf_token: CsrfForm = ""
) -> Response:
    check_csrf(web, csrf_token)
    try:
        passback.resend(runtime, link_id=link_id)
    except NotFound:
        raise passback_not_found(link_id) from None
    return RedirectResponse("/instructor/lti#passbacks", status_code=status.HTTP_303_SEE_OTHER)


@router.post("/instructor/lti/courses/{context_id}/section")
def set_context_section(
    context_id: int,
    web: WebDep,
    db: SessionDep,
    _: InstructorDep,
    csrf_token: CsrfForm = "",
    section: Annotated[str, Form()] = "",
) -> Response:
    check_csrf(web, csrf_token)
    try:
        contexts.set_section(session=db, context_id=context_id, section=section)
    except NotFound:
        raise lms_context_not_found(context_id) from None
    except contexts.InvalidSection:
        raise PageError(
            status.HTTP_400_BAD_REQUEST,
            N_("Section name too long"),
            N_("A section name has at most {limit} characters."),
            limit=str(contexts.SECTION_LENGTH),
        ) from None
    return RedirectResponse("/instructor/lti#courses", status_code=status.HTTP_303_SEE_OTHER)


@router.post("/instructor/lti/courses/{context_id}/sync")
def sync_context_roster(
    context_id: int,
    request: Request,
    web: WebDep,
    db: SessionDep,
    instructor: InstructorDep,
    csrf_token: CsrfForm = "",
) -> Response:
    check_csrf(web, csrf_token)
    try:
        result = roster_sync.synchronise(session=db, context_id=context_id)
    except NotFound:
        raise lms_context_not_found(context_id) from None
    except roster_sync.RosterSyncFailed as exc:
        logger.warning("lti.roster_sync_failed", extra={"context": context_id, "error": str(exc)})
        raise PageError(
            status.HTTP_502_BAD_GATEWAY,
            N_("The roster could not be synchronised"),
            N_(
                "numjudge could not read the LMS context's members: {reason}. Nothing on the roster changed."  # noqa: E501
            ),
            reason=str(exc),
        ) from None
    logger.info(
        "lti.roster_sync",
        extra={"context": context_id, "counts": result.counts, "instructor_id": instructor.id},
    )
    return _lti_page(request, web, db, {"synced": result, "synced_context": context_id})
