"""Roster synchronisation from the LMS (LTI Names and Role Provisioning Services).

An LMS context's launches name its membership list (the ``context_memberships_url`` of their NRPS
claim). ``synchronise`` reads the whole list with pylti1p3's ``NamesRolesProvisioningService``
(it follows the ``Link: rel="next"`` pages) under an access token for the NRPS scope
(connector.py), then applies it: each active member gets their account, made or found as a
launch does (accounts.py: linked, else an unused account with their e-mail address from a
platform trusted for it, else a new one), an instructor's role for the LMS's instructors and
teaching assistants (never taken away), an active enrolment, and for learners the context's
section when it maps to one (contexts.py). A member whose address an account has that only
its owner may link (accounts.py, rule 3) is left out, waiting: the list cannot sign anyone in,
so they choose at their first launch. Members the list marks inactive or deleted, and those
gone from it, are marked dropped: their accounts and work stay, and they are not disabled.

The list is read whole before anything is written, so a failure (no membership list for the
context, a token the platform refuses, an HTTP error, a member's record holding text no database
stores) changes nothing of the roster.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from pylti1p3.exception import LtiServiceException
from pylti1p3.names_roles import NamesRolesProvisioningService, TMember
from sqlalchemy.orm import Session

from app.core.text import UNSTORABLE, first_unstorable
from app.models import EnrolmentState, LtiContext, User, utcnow
from app.services.lti import accounts, contexts
from app.services.lti.accounts import AccountRefused, LmsPerson, OwnerMustSignIn, role_of
from app.services.lti.connector import SERVICE_ERRORS, connector, failure
from app.store import lti as lti_store

NRPS_SCOPE = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
# A membership's status when it names none; the others are "Inactive" and "Deleted".
ACTIVE = "Active"


class RosterSyncFailed(Exception):
    """An LMS context's roster could not be synchronised; the message says why. Nothing of the
    roster changed; the failure is kept as the context's last synchronisation."""


@dataclass(frozen=True)
class SyncResult:
    """Who a synchronisation enrolled (again), changed, left as they were, and dropped: names
    as the roster shows them (the LMS's name, else the account's); and the members waiting to
    sign in to link an account with their e-mail address (the LMS's name, else its user id)."""

    added: tuple[str, ...]
    updated: tuple[str, ...]
    unchanged: int
    dropped: tuple[str, ...]
    waiting: tuple[str, ...] = ()

    @property
    def counts(self) -> tuple[int, int, int, int]:
        return len(self.added), len(self.updated), self.unchanged, len(self.dropped)


def synchronise(*, session: Session, context_id: int) -> SyncResult:
    """Synchronise the roster with the LMS context numbered ``context_id`` (``NotFound``,
    ``RosterSyncFailed``). Commits: the roster's changes with the outcome, or only the
    failure."""
    context = contexts.find(session=session, context_id=context_id)
    now = utcnow()
    try:
        result = _apply(session, context, _members(session, context), now)
    except RosterSyncFailed as exc:
        session.rollback()
        lti_store.record_sync(session=session, context=context, at=now, error=str(exc))
        session.commit()
        raise
    lti_store.record_sync(session=session, context=context, at=now, counts=result.counts)
    session.commit()
    return result


def _members(session: Session, context: LtiContext) -> list[TMember]:
    if not context.memberships_url:
        raise RosterSyncFailed(
            "the LMS offered no membership list (Names and Role Provisioning Services) for "
            "this LMS context: enable the service for the tool, then open the tool from it"
        )
    services = connector(context.platform, session=session)
    names_roles = NamesRolesProvisioningService(
        services, {"context_memberships_url": context.memberships_url}
    )
    try:
        services.get_access_token([NRPS_SCOPE])
        # The token is cached in this session: commit it, so that SQLite's write lock is not
        # held while the LMS sends the pages.
        session.commit()
        members = names_roles.get_members()
    except (LtiServiceException, *SERVICE_ERRORS) as exc:
        reason = failure(exc)
        raise RosterSyncFailed(f"the LMS's membership list could not be read: {reason}") from exc
    unstorable = first_unstorable(members, "members")
    if unstorable is not None:
        raise RosterSyncFailed(f"the LMS's membership list holds {UNSTORABLE} in {unstorable}")
    return members


def _apply(
    session: Session, context: LtiContext, members: list[TMember], now: datetime
) -> SyncResult:
    added: list[str] = []
    updated: list[str] = []
    unchanged = 0
    waiting: list[str] = []
    kept: set[int] = set()
    for member in members:
        if member.get("status", ACTIVE) != ACTIVE or not member.get("user_id"):
            continue
        roles = [str(role) for role in member.get("roles") or ()]
        person = LmsPerson.of(member, subject=member["user_id"], role=role_of(roles))
        try:
            found = accounts.account(session=session, platform=context.platform, person=person)
        except OwnerMustSignIn:
            waiting.append(person.name or person.subject)
            continue
        except AccountRefused as exc:
            raise RosterSyncFailed(f"the member {person.subject}: {exc}") from exc
        enrolled = contexts.enrol(session=session, context=context, user=found.user, now=now)
        kept.add(found.user.id)
        if enrolled.before is not EnrolmentState.ACTIVE:
            added.append(_shown(found.user))
        elif found.changed or enrolled.section_changed:
            updated.append(_shown(found.user))
        else:
            unchanged += 1
    dropped = lti_store.drop_others(session=session, context=context, kept_user_ids=kept, now=now)
    return SyncResult(
        tuple(sorted(added)),
        tuple(sorted(updated)),
        unchanged,
        tuple(sorted(map(_shown, dropped))),
        tuple(sorted(waiting)),
    )


def _shown(user: User) -> str:
    return user.display_name or user.name
