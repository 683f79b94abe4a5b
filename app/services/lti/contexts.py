"""The LMS contexts (the LMS's courses) launches come from, and who is enrolled in them.

Every launch records its context (its id, title and label, and the Names and Role Provisioning
Services endpoint when the launch offers one) and marks its user's enrolment active. An
instructor may map a context to a numjudge section: its learners are put in that section at
each launch and roster synchronisation (app/services/lti/roster_sync.py), and at once when the
mapping is set; without a mapping their sections are left alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from app.models import EnrolmentState, LtiContext, LtiPlatform, Role, SyncState, User, utcnow
from app.services.errors import NotFound
from app.store import accounts as account_store
from app.store import lti as lti_store

CONTEXT_CLAIM = "https://purl.imsglobal.org/spec/lti/claim/context"
NRPS_CLAIM = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"
SECTION_LENGTH = 32


class InvalidSection(ValueError):
    """A section name longer than a section may be."""


def record_launch(
    *, session: Session, platform: LtiPlatform, user: User, claims: dict[str, Any]
) -> LtiContext | None:
    """Keep the launch's context and enrol its user (None: the launch names no context)."""
    context_claim = claims.get(CONTEXT_CLAIM)
    if not isinstance(context_claim, dict) or not context_claim.get("id"):
        return None
    service = claims.get(NRPS_CLAIM)
    memberships_url = service.get("context_memberships_url") if isinstance(service, dict) else ""
    context = lti_store.save_context(
        session=session,
        platform=platform,
        context_id=str(context_claim["id"])[:255],
        title=str(context_claim.get("title") or "")[:255],
        label=str(context_claim.get("label") or "")[:255],
        memberships_url=str(memberships_url or "")[:1024],
    )
    enrol(session=session, context=context, user=user, now=utcnow())
    return context


@dataclass(frozen=True)
class Enrolled:
    before: EnrolmentState | None  # None: not enrolled before
    section_changed: bool


def enrol(*, session: Session, context: LtiContext, user: User, now: datetime) -> Enrolled:
    """Mark the user an active member of the context, and put a learner in its section."""
    before = lti_store.set_enrolment(
        session=session, context=context, user=user, state=EnrolmentState.ACTIVE, now=now
    )
    return Enrolled(before, _put_in_section(session, context, user))


def _put_in_section(session: Session, context: LtiContext, user: User) -> bool:
    if context.section is None or user.role is not Role.LEARNER or user.section == context.section:
        return False
    account_store.set_profile(
        session=session,
        user=user,
        display_name=user.display_name,
        email=user.email,
        section=context.section,
    )
    return True


NO_SECTION = "-"
"""What a page's field or the command line says for "no section"."""


def find(*, session: Session, context_id: int) -> LtiContext:
    """The context numbered ``context_id`` (``NotFound``)."""
    context = lti_store.get_context(session=session, context_id=context_id)
    if context is None:
        raise NotFound(f"LMS context {context_id} not found")
    return context


def set_section(*, session: Session, context_id: int, section: str | None) -> int:
    """Map the context to ``section`` (None, blank or ``-``: no section) and put its active
    learners in it; how many changed section (``NotFound``, ``InvalidSection``)."""
    typed = (section or "").strip()
    name = None if typed in ("", NO_SECTION) else typed
    if name is not None and len(name) > SECTION_LENGTH:
        raise InvalidSection(f"a section is at most {SECTION_LENGTH} characters")
    context = find(session=session, context_id=context_id)
    lti_store.set_context_section(session=session, context=context, section=name)
    members = lti_store.enrolled_users(
        session=session, context=context, state=EnrolmentState.ACTIVE
    )
    return sum(_put_in_section(session, context, user) for user in members)


@dataclass(frozen=True)
class ContextView:
    """An LMS context as the instructors' page and the command line show it."""

    id: int
    platform: str  # its issuer
    context_id: str
    title: str
    label: str
    section: str | None
    has_roster_service: bool
    active: int  # members enrolled
    dropped: int
    synced_at: datetime | None
    sync_state: SyncState | None
    sync_counts: tuple[int, int, int, int]  # the last sync's added, updated, unchanged, dropped
    sync_error: str


def known_contexts(*, session: Session) -> list[ContextView]:
    """Every LMS context a launch came from, the first seen first."""
    counts = lti_store.enrolment_counts(session=session)
    return [
        ContextView(
            c.id,
            c.platform.issuer,
            c.context_id,
            c.title,
            c.label,
            c.section,
            bool(c.memberships_url),
            counts.get((c.id, EnrolmentState.ACTIVE), 0),
            counts.get((c.id, EnrolmentState.DROPPED), 0),
            c.synced_at,
            c.sync_state,
            (c.sync_added, c.sync_updated, c.sync_unchanged, c.sync_dropped),
            c.sync_error,
        )
        for c in lti_store.list_contexts(session=session)
    ]
