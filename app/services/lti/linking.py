"""An LMS user's choice at their first launch when an account has their e-mail address that
may be linked to them only by its owner (accounts.py, rule 3): sign in to it, which links it
for good, or take a new account.

The launch is checked in full before the choice is offered, and pylti1p3 keeps its claims in
the launch cache under its launch id for an hour (over HTTPS, under the browser's pylti1p3
session cookie too, so another browser cannot use the id). The page carries the id; the choice
uses it up (a second choice is refused) and ends the launch as a launch ends
(``launch.arrive``): the LMS context recorded, grade passback's link kept, the user signed in
where the link leads.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pylti1p3.exception import LtiException
from sqlalchemy.orm import Session

from app.models import LtiPlatform, Role, User
from app.services.lti import accounts
from app.services.lti.accounts import AccountRefused, LmsPerson
from app.services.lti.adapter import LaunchCache, ToolRequest, cached_launch, find_platform
from app.services.lti.launch import Launched, LaunchRefused, active, arrive
from graders.api import ExerciseCatalog

GONE = "this launch is unknown, expired or already used: open the activity from your LMS again"


@dataclass(frozen=True)
class PendingLink:
    """A checked resource-link launch waiting for its LMS user's choice."""

    launch_id: str
    platform: LtiPlatform
    claims: dict[str, Any]
    person: LmsPerson
    staff: bool
    cache: LaunchCache  # holds the launch data, under the browser's session cookie


def pending(*, session: Session, request: ToolRequest, launch_id: str) -> PendingLink:
    """The launch ``launch_id`` waiting for its user's choice (``LaunchRefused``: unknown,
    expired, chosen already, or not a resource-link launch)."""
    cache = LaunchCache(session)
    try:
        launch = cached_launch(session=session, cache=cache, request=request, launch_id=launch_id)
        claims: dict[str, Any] = dict(launch.get_launch_data())
        resource = launch.is_resource_launch()
        staff = launch.check_teacher_access() or launch.check_teaching_assistant_access()
        client_id = launch.get_client_id()
    except LtiException as exc:
        raise LaunchRefused(GONE) from exc
    platform = find_platform(session=session, issuer=claims.get("iss", ""), client_id=client_id)
    if not resource or platform is None:
        raise LaunchRefused(GONE)
    role = Role.INSTRUCTOR if staff else Role.LEARNER
    person = LmsPerson.of(claims, subject=claims.get("sub"), role=role)
    return PendingLink(launch_id, platform, claims, person, staff, cache)


def link(
    *,
    session: Session,
    catalog: ExerciseCatalog,
    waiting: PendingLink,
    user: User | None,
    tool_host: str,
) -> Launched:
    """Link the waiting launch's LMS user to ``user``, whose password was just checked, or to a
    new account (None), and end the launch (``LaunchRefused``)."""
    if not waiting.cache.take_value(waiting.launch_id):
        raise LaunchRefused(GONE)
    try:
        found = accounts.link_chosen(
            session=session, platform=waiting.platform, person=waiting.person, user=user
        )
    except AccountRefused as exc:
        raise LaunchRefused(str(exc)) from exc
    return arrive(
        session=session,
        catalog=catalog,
        platform=waiting.platform,
        user=active(found.user),
        claims=waiting.claims,
        staff=waiting.staff,
        tool_host=tool_host,
    )
