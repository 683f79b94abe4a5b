"""Who an LMS user is in numjudge: the account a launch signs in, and the one a roster
synchronisation keeps up to date; both go through ``account``."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pylti1p3.roles import TeacherRole, TeachingAssistantRole
from sqlalchemy.orm import Session

from app.models import LtiPlatform, Role, User
from app.store import accounts as account_store
from app.store import lti as lti_store

ROLES_CLAIM = "https://purl.imsglobal.org/spec/lti/claim/roles"


class AccountRefused(Exception):
    """No account can stand for this LMS user; the message says why."""


@dataclass(frozen=True)
class LmsPerson:
    """An LMS user as a launch's claims or a membership list give them."""

    subject: str  # the platform's ``sub`` (a membership's ``user_id``)
    name: str
    email: str
    role: Role  # instructor for the LMS's instructors and teaching assistants

    @classmethod
    def of(cls, data: Mapping[str, Any], *, subject: object, role: Role) -> LmsPerson:
        """From a launch's claims or a membership: both name the person alike."""
        name = data.get("name") or " ".join(
            str(part) for part in (data.get("given_name"), data.get("family_name")) if part
        )
        return cls(str(subject or ""), str(name or ""), str(data.get("email") or ""), role)


def role_of(roles: Sequence[str]) -> Role:
    """The numjudge role of LMS roles, as pylti1p3 reads them for a launch."""
    claims = {ROLES_CLAIM: list(roles)}
    kinds = (TeacherRole, TeachingAssistantRole)
    staff = any(kind(claims).check() for kind in kinds)
    return Role.INSTRUCTOR if staff else Role.LEARNER


@dataclass(frozen=True)
class LmsAccount:
    user: User
    changed: bool  # made now, or its name, e-mail address or role changed


def account_name(platform: LtiPlatform, subject: str) -> str:
    """The numjudge name of an LMS user: stable, and telling nothing of them."""
    digest = hashlib.sha256(f"{platform.id}\n{subject}".encode()).hexdigest()
    return f"lti-{digest[:16]}"


def account(*, session: Session, platform: LtiPlatform, person: LmsPerson) -> LmsAccount:
    """The LMS user's account: linked before, else the roster's account with their e-mail
    address, else a new one (without a password: it signs in through the LMS); its name and
    e-mail address as the LMS gives them (``AccountRefused``). The LMS can make an account an
    instructor, never take the role away (an instructor trying the student view of their
    course stays one)."""
    if not person.subject:
        raise AccountRefused("the LMS names no user (an anonymous launch)")
    user = lti_store.linked_user(session=session, platform=platform, subject=person.subject)
    if user is None:
        user = _roster_account(session, person.email) or _new_account(
            session, account_name(platform, person.subject), person.role
        )
        lti_store.link_user(session=session, platform=platform, subject=person.subject, user=user)
        before = None
    else:
        before = _profile(user)
    if person.role is Role.INSTRUCTOR and user.role is not Role.INSTRUCTOR:
        account_store.set_role(session=session, user=user, role=person.role)
    account_store.set_profile(
        session=session,
        user=user,
        display_name=person.name[:128] or user.display_name,
        email=person.email[:254] or user.email,
        section=user.section,
    )
    return LmsAccount(user, before != _profile(user))


def _profile(user: User) -> tuple[object, ...]:
    return user.display_name, user.email, user.role


def _roster_account(session: Session, email: str) -> User | None:
    if not email:
        return None
    found = lti_store.unlinked_users_with_email(session=session, email=email)
    return found[0] if len(found) == 1 else None


def _new_account(session: Session, name: str, role: Role) -> User:
    if account_store.get_user_by_name(session=session, name=name) is not None:
        raise AccountRefused(f"the account name {name} is taken by an account of numjudge")
    return account_store.create_user(session=session, name=name, role=role)
