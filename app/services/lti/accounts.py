"""Who an LMS user is in numjudge: the account a launch signs in, and the one a roster
synchronisation keeps up to date; both go through ``account``.

An LMS user is linked to one account at their first launch or synchronisation, for good:

1. the account linked to them before (per registration: the platform and their ``sub``);
2. else, by e-mail address, an account nobody has used, when the platform is trusted for it
   (``numjudge lti add-platform --match-email``): the only account with the address (whatever
   its case) no LMS user is linked to, a learner's, never used (no password, no submission, no
   API token, no sign-up link used), for an LMS learner. A roster import's learner is found by
   the address the LMS sends;
3. else, when an account has the address that its owner could sign in to (it has a password,
   or no LMS user is linked to it: a sign-up link gives it one), ``OwnerMustSignIn``: the launch
   asks the LMS user to sign in to that account once, which links it (``link_chosen``), or to
   choose a new account; a synchronisation leaves the member for their first launch;
4. else a new account named ``lti-`` and 16 hex digits, without a password (it signs in
   through the LMS).

So an e-mail address an LMS sends never opens an account someone uses: the address of an LMS
that does not check it, or a learner's own address typed as another's, links only an account
with nothing in it, and only from a platform trusted to vouch for it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pylti1p3.roles import TeacherRole, TeachingAssistantRole
from sqlalchemy.orm import Session

from app.models import Enrolment, LtiPlatform, Role, User
from app.store import accounts as account_store
from app.store import lti as lti_store

ROLES_CLAIM = "https://purl.imsglobal.org/spec/lti/claim/roles"


class AccountRefused(Exception):
    """No account can stand for this LMS user; the message says why."""


class OwnerMustSignIn(Exception):
    """An account has the LMS user's e-mail address, and may not be linked to them unless its
    owner signs in to it: the LMS user chooses (``link_chosen``)."""


@dataclass(frozen=True)
class LmsPerson:
    """An LMS user as a launch's claims or a membership list give them."""

    subject: str  # the platform's ``sub`` (a membership's ``user_id``)
    name: str
    email: str
    role: Role  # instructor for the LMS's instructors and teaching assistants

    @classmethod
    def of(cls, data: Mapping[str, Any], *, subject: object, role: Role) -> LmsPerson:
        """From a launch's claims or a membership: both name the person alike. A name or an
        address that is not a string (a list, a number) is left out, not written out."""
        name = _text(data.get("name")) or " ".join(
            part for part in (_text(data.get("given_name")), _text(data.get("family_name"))) if part
        )
        return cls(str(subject or ""), name, _text(data.get("email")), role)


def _text(claim: object) -> str:
    return claim if isinstance(claim, str) else ""


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
    """The LMS user's account, linked before, else found or made as the module says
    (``AccountRefused``, ``OwnerMustSignIn``); its name and e-mail address as the LMS gives
    them. The LMS can make an account an instructor, never take the role away (an instructor
    trying the student view of their course stays one)."""
    _check(person)
    user = lti_store.linked_user(session=session, platform=platform, subject=person.subject)
    if user is not None:
        return _updated(session, user, person, _profile(user))
    found = _by_email(session, platform, person) or _new_account(session, platform, person)
    return _linked(session, platform, person, found)


def link_chosen(
    *, session: Session, platform: LtiPlatform, person: LmsPerson, user: User | None
) -> LmsAccount:
    """Link the LMS user as they chose where ``account`` said ``OwnerMustSignIn``: to ``user``,
    whose password they have just given, or to a new account (None) (``AccountRefused``)."""
    _check(person)
    if lti_store.linked_user(session=session, platform=platform, subject=person.subject):
        raise AccountRefused("this LMS user is already linked to an account")
    return _linked(session, platform, person, user or _new_account(session, platform, person))


def _check(person: LmsPerson) -> None:
    if not person.subject:
        raise AccountRefused("the LMS names no user (an anonymous launch)")


def _linked(session: Session, platform: LtiPlatform, person: LmsPerson, user: User) -> LmsAccount:
    lti_store.link_user(session=session, platform=platform, subject=person.subject, user=user)
    user.enrolment = Enrolment.ENROLLED  # the LMS's course has them: its gradebooks count them
    return _updated(session, user, person, None)


def _updated(
    session: Session, user: User, person: LmsPerson, before: tuple[object, ...] | None
) -> LmsAccount:
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


def _by_email(session: Session, platform: LtiPlatform, person: LmsPerson) -> User | None:
    """The unused account the LMS user's address links to (rule 2), None for a new account
    (rule 4), or ``OwnerMustSignIn`` (rule 3)."""
    if not person.email.strip():
        return None
    holders = lti_store.users_with_email(session=session, email=person.email)
    if not holders:
        return None
    ids = [user.id for user in holders]
    linked = lti_store.linked_user_ids(session=session, user_ids=ids)
    unlinked = [user for user in holders if user.id not in linked]
    if platform.match_email and person.role is Role.LEARNER and len(unlinked) == 1:
        [user] = unlinked
        used = lti_store.used_user_ids(session=session, user_ids=[user.id])
        if user.role is Role.LEARNER and user.id not in used:
            return user
    if unlinked or any(user.password_hash is not None for user in holders):
        raise OwnerMustSignIn("an account has this e-mail address: its owner signs in to link it")
    return None  # only other LMS users' accounts, which nobody signs in to with a password


def _new_account(session: Session, platform: LtiPlatform, person: LmsPerson) -> User:
    name = account_name(platform, person.subject)
    if account_store.get_user_by_name(session=session, name=name) is not None:
        raise AccountRefused(f"the account name {name} is taken by an account of numjudge")
    return account_store.create_user(session=session, name=name, role=person.role)
