"""The OIDC login and the resource-link launch: from an LMS's request to a signed-in learner.

The LMS first calls the login URL; the tool answers with a redirect to the platform's
authentication URL carrying a fresh state (also in a short-lived cookie) and nonce (in the
launch cache). The platform then posts a signed id_token to the launch URL: pylti1p3 checks the
state, the registration (issuer and audience; with several audiences, the authorised party),
the signature against the platform's key set (fetched each launch, so a rotated platform key is
picked up at once; a malformed one refuses the launch), the issue and expiry times (a minute of
leeway for clock skew), the deployment id and the message; ``ToolSession`` uses the nonce up
(adapter.py adds what pylti1p3 leaves out). Anything wrong refuses the launch with
``LaunchRefused`` and pylti1p3's reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from jwt.types import Options
from pylti1p3.exception import LtiException, OIDCException, ToolConfException
from sqlalchemy.orm import Session

from app.core.text import UNSTORABLE, first_unstorable
from app.models import LtiPlatform, Role, User
from app.services.lti import accounts, contexts, deep_linking, passback
from app.services.lti.accounts import AccountRefused, LmsPerson, OwnerMustSignIn
from app.services.lti.adapter import (
    CookieJar,
    DatabaseToolConf,
    LaunchCache,
    PendingCookie,
    TimedSession,
    ToolLaunch,
    ToolLogin,
    ToolRequest,
    ToolSession,
    find_platform,
)
from app.services.lti.platforms import LAUNCH_PATH
from graders.api import ExerciseCatalog

# pyjwt checks the expiry when the token has one: a launch token must have one. The audience
# is pylti1p3's to check (it looks the registration up by it).
JWT_CHECKS: Options = {"verify_aud": False, "require": ["exp", "iat"]}
LAUNCH_DATA_LIFETIME_S = 3600
TARGET_CLAIM = "https://purl.imsglobal.org/spec/lti/claim/target_link_uri"


class LaunchRefused(Exception):
    """A login or a launch that fails a check; the message says which, in pylti1p3's words.
    ``origin``: the LMS's, for a deep-linking launch that named it (its frame may show the
    refusal)."""

    def __init__(self, message: str, origin: str = "") -> None:
        super().__init__(message)
        self.origin = origin


@dataclass(frozen=True)
class LoginRedirect:
    location: str  # the platform's authentication request
    cookies: tuple[PendingCookie, ...]


@dataclass(frozen=True)
class Launched:
    user: User
    next_path: str  # where the learner lands: the link's target on this site, else "/"
    cookies: tuple[PendingCookie, ...]
    # A grade link opened for the first time after its work was graded: send its score once
    # the launch is committed (passback.resend).
    passback_due: int | None = None


@dataclass(frozen=True)
class PickRequested:
    """An instructor's deep-linking launch: the LMS waits for the work they pick. ``user``:
    None while an account with their e-mail address waits for its owner to sign in to link it
    (at a resource-link launch, linking.py); the picker needs none."""

    user: User | None
    picker: deep_linking.Picker


@dataclass(frozen=True)
class LinkOffered:
    """A resource-link launch of an LMS user not linked yet, whose e-mail address an account
    has that they may link only by signing in to it (accounts.py): the page asks them, with the
    launch's id (linking.py)."""

    launch_id: str
    cookies: tuple[PendingCookie, ...]


def _services(session: Session, request: ToolRequest) -> tuple[CookieJar, ToolSession, LaunchCache]:
    cache = LaunchCache(session)
    return CookieJar(request), ToolSession(request, cache), cache


def begin_login(*, session: Session, request: ToolRequest, launch_url: str) -> LoginRedirect:
    """Answer a platform's login initiation (``LaunchRefused`` if the platform is unknown)."""
    cookies, tool_session, cache = _services(session, request)
    login = ToolLogin(
        request,
        DatabaseToolConf(session),
        session_service=tool_session,
        cookie_service=cookies,
        launch_data_storage=cache,
    )
    try:
        location = login.redirect(launch_url)
    except (LtiException, OIDCException, ToolConfException) as exc:
        raise LaunchRefused(str(exc)) from exc
    return LoginRedirect(location=location, cookies=tuple(cookies.pending))


def complete_launch(
    *,
    session: Session,
    catalog: ExerciseCatalog,
    request: ToolRequest,
    tool_host: str,
    lang: str,
) -> Launched | PickRequested | LinkOffered:
    """Check a launch and find or make its user's account (``LaunchRefused``), or offer them to
    link one by signing in (``LinkOffered``). A resource-link launch keeps what grade passback
    needs when the link opens an exercise or an assignment; an instructor's deep-linking launch
    asks for the picker (in the reader's ``lang``)."""
    cookies, tool_session, cache = _services(session, request)
    try:
        launch = ToolLaunch(
            request,
            DatabaseToolConf(session),
            session_service=tool_session,
            cookie_service=cookies,
            launch_data_storage=cache,
            requests_session=TimedSession(),  # the platform's key set is fetched in the launch
        )
        launch.set_jwt_verify_options(JWT_CHECKS)
        launch.set_launch_data_lifetime(LAUNCH_DATA_LIFETIME_S)
        claims: dict[str, Any] = dict(launch.get_launch_data())
        picking = launch.is_deep_link_launch()
        if not (picking or launch.is_resource_launch()):
            raise LaunchRefused("numjudge takes resource-link and deep-linking launches only")
        staff = launch.check_teacher_access() or launch.check_teaching_assistant_access()
    except (LtiException, OIDCException, ToolConfException) as exc:
        raise LaunchRefused(str(exc)) from exc
    unstorable = first_unstorable(claims)
    if unstorable is not None:  # names, addresses and titles are stored: a 500 at the insert
        raise LaunchRefused(f"the LMS sent {UNSTORABLE} in the claim {unstorable}")
    platform = find_platform(
        session=session, issuer=claims["iss"], client_id=launch.get_client_id()
    )
    assert platform is not None, "pylti1p3 found the registration"
    if picking and not staff:
        raise LaunchRefused(
            "only an instructor or a teaching assistant can add numjudge's work",
            deep_linking.frame_origin(claims),
        )
    role = Role.INSTRUCTOR if staff else Role.LEARNER
    if picking:
        return _picker(session, catalog, platform, claims, role, launch.get_launch_id(), lang)
    try:
        user = _account(session, platform, claims, role)
    except OwnerMustSignIn:
        return LinkOffered(launch_id=launch.get_launch_id(), cookies=tuple(cookies.pending))
    return arrive(
        session=session,
        catalog=catalog,
        platform=platform,
        user=user,
        claims=claims,
        staff=staff,
        tool_host=tool_host,
        cookies=tuple(cookies.pending),
    )


def _picker(
    session: Session,
    catalog: ExerciseCatalog,
    platform: LtiPlatform,
    claims: dict[str, Any],
    role: Role,
    launch_id: str,
    lang: str,
) -> PickRequested:
    """An instructor's deep-linking launch. The picker needs no account: while an account with
    their e-mail address waits for its owner to sign in (which a resource-link launch offers),
    it goes on without one, and without recording the LMS context."""
    try:
        user: User | None = _account(session, platform, claims, role)
    except OwnerMustSignIn:
        user = None
    if user is not None:
        contexts.record_launch(session=session, platform=platform, user=user, claims=claims)
    try:
        found = deep_linking.picker(catalog=catalog, launch_id=launch_id, claims=claims, lang=lang)
    except deep_linking.DeepLinkRefused as exc:
        raise LaunchRefused(str(exc), deep_linking.frame_origin(claims)) from exc
    return PickRequested(user=user, picker=found)


def arrive(
    *,
    session: Session,
    catalog: ExerciseCatalog,
    platform: LtiPlatform,
    user: User,
    claims: dict[str, Any],
    staff: bool,
    tool_host: str,
    cookies: tuple[PendingCookie, ...] = (),
) -> Launched:
    """A resource-link launch's end once its user has an account: its course recorded, what
    grade passback needs kept, and where the user lands."""
    contexts.record_launch(session=session, platform=platform, user=user, claims=claims)
    next_path = _landing(claims.get(TARGET_CLAIM, ""), tool_host)
    due = None
    if not staff:  # the LMS's gradebook has learners' rows only
        due = passback.remember(
            session=session,
            catalog=catalog,
            platform=platform,
            user=user,
            claims=claims,
            target_path=next_path,
        )
    return Launched(
        user=user,
        next_path=next_path,
        cookies=cookies,
        passback_due=due.id if due is not None else None,
    )


def _account(session: Session, platform: LtiPlatform, claims: dict[str, Any], role: Role) -> User:
    """The LMS user's account (app/services/lti/accounts.py), if it may sign in
    (``OwnerMustSignIn`` passes through)."""
    person = LmsPerson.of(claims, subject=claims.get("sub"), role=role)
    try:
        return active(accounts.account(session=session, platform=platform, person=person).user)
    except AccountRefused as exc:
        raise LaunchRefused(str(exc)) from exc


def active(user: User) -> User:
    """``user`` if it may sign in (``LaunchRefused``)."""
    if not user.is_active:
        raise LaunchRefused("this account is disabled in numjudge: ask an instructor")
    return user


def _landing(target_link_uri: object, tool_host: str) -> str:
    """The target link's path when it is a page of this site (never another site)."""
    if not isinstance(target_link_uri, str):
        return "/"
    parts = urlsplit(target_link_uri)
    path = parts.path
    if parts.netloc != tool_host or not path.startswith("/") or path.startswith("//"):
        return "/"
    if path == LAUNCH_PATH or "\\" in path:
        return "/"
    return path + (f"?{parts.query}" if parts.query else "")
