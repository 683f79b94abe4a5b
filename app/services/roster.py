"""Rosters: importing learners from a CSV with one-time sign-up links, and joining by a link.

An import checks every row before creating anything (the name rule, duplicates in the file,
names already taken, malformed emails, unknown columns) and is one transaction: either every
learner is created or none. A learner from a roster has no password; their link (a random
token, only its SHA-256 kept) lets them choose one once, before it expires.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import re
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import Enum, StrEnum
from typing import Any

from cryptography.fernet import Fernet
from sqlalchemy.orm import Session

from app.core.config import Settings
from app.core.names import InvalidName, check_new_name, check_password, name_key
from app.models import Enrolment, MailState, Role, SignupLink, User, utcnow
from app.services import throttle
from app.services.accounts import (
    HashSlots,
    create_account,
    set_disabled,
    set_password,
    signup_rule,
)
from app.services.auth import end_all_sessions
from app.services.gradebook import write_csv
from app.store import accounts as account_store
from app.store import lti as lti_store

MAX_ROWS = 2000
HANDOFF_MINUTES = 15
"""How long an import's page can show its links again (a reload), before they are gone."""
# Deliverability is not checked (nothing is sent): one @, no spaces, a dotted domain.
EMAIL = re.compile(r"[^@\s]+@[^@\s.]+(\.[^@\s.]+)+")


class Column(StrEnum):
    USERNAME = "username"
    DISPLAY_NAME = "display_name"
    EMAIL = "email"
    SECTION = "section"


LIMITS = {Column.DISPLAY_NAME: 128, Column.EMAIL: 254, Column.SECTION: 32}


class Problem(Enum):
    """What is wrong with a line; the value is the English message with its placeholders."""

    EMPTY = "the file has no header row"
    NO_LEARNERS = "the file has a header row but no learners"
    TOO_MANY = "more than {limit} learners in one import"
    NO_USERNAME = "the header has no username column"
    UNKNOWN_COLUMNS = (
        "unknown columns {columns}: the columns are username, display_name, email and section"
    )
    REPEATED_COLUMN = "the column {column} appears twice"
    FIELD_COUNT = "{count} fields where the header has {expected}"
    BAD_NAME = (
        "{name} is not a valid username: 2–32 letters, digits, dots, dashes or "
        "underscores (ASCII), starting with a letter or digit"
    )
    DUPLICATE = "{name} is also on line {other}"
    TAKEN = "the username {name} is taken"
    BAD_EMAIL = "{email} is not an email address"
    TOO_LONG = "{column} is longer than {limit} characters"


@dataclass(frozen=True)
class LineProblem:
    line: int
    problem: Problem
    values: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return f"line {self.line}: {self.problem.value.format(**self.values)}"


class RosterRejected(ValueError):
    """The roster has problems; nothing was created."""

    def __init__(self, problems: Sequence[LineProblem]) -> None:
        super().__init__("\n".join(map(str, problems)))
        self.problems = list(problems)


@dataclass(frozen=True)
class RosterRow:
    line: int
    username: str
    display_name: str | None
    email: str | None
    section: str | None


@dataclass(frozen=True)
class IssuedLink:
    """A link as issued: the token is in no database, so this is its only copy."""

    username: str
    display_name: str | None
    token: str

    def url(self, base_url: str) -> str:
        return f"{base_url.rstrip('/')}/join/{self.token}"


class LinkUsed(Exception):
    """The sign-up link was used by another request while this one was checking it."""


class LinkState(Enum):
    VALID = "valid"
    UNKNOWN = "unknown"  # mistyped, or replaced by a newer link
    USED = "used"
    EXPIRED = "expired"
    DISABLED = "disabled"  # the learner's account is disabled: the link waits for ``enable``


def _header_problems(header: list[str]) -> list[LineProblem]:
    names = [h.strip().lower() for h in header]
    known = {c.value for c in Column}
    problems = []
    unknown = [n for n in names if n not in known]
    if unknown:
        problems.append(
            LineProblem(1, Problem.UNKNOWN_COLUMNS, {"columns": ", ".join(map(repr, unknown))})
        )
    for name in sorted({n for n in names if names.count(n) > 1 and n in known}):
        problems.append(LineProblem(1, Problem.REPEATED_COLUMN, {"column": name}))
    if Column.USERNAME.value not in names:
        problems.append(LineProblem(1, Problem.NO_USERNAME))
    return problems


def _row(line: int, values: dict[str, str]) -> tuple[RosterRow | None, list[LineProblem]]:
    problems = []
    raw_name = values.get(Column.USERNAME, "")
    try:
        username = check_new_name(raw_name)
    except InvalidName:
        problems.append(LineProblem(line, Problem.BAD_NAME, {"name": repr(raw_name.strip())}))
        username = ""
    optional = {c: values.get(c, "").strip() or None for c in LIMITS}
    for column, limit in LIMITS.items():
        value = optional[column]
        if value is not None and len(value) > limit:
            problems.append(
                LineProblem(line, Problem.TOO_LONG, {"column": column.value, "limit": limit})
            )
    email = optional[Column.EMAIL]
    if email is not None and len(email) <= LIMITS[Column.EMAIL] and not EMAIL.fullmatch(email):
        problems.append(LineProblem(line, Problem.BAD_EMAIL, {"email": repr(email)}))
    if problems:
        return None, problems
    return RosterRow(
        line, username, optional[Column.DISPLAY_NAME], email, optional[Column.SECTION]
    ), []


def parse_roster(text: str) -> tuple[list[RosterRow], list[LineProblem]]:
    """The rows of a roster and every problem of its own (not yet the names already taken)."""
    lines = list(csv.reader(text.lstrip("\ufeff").splitlines()))
    header = lines[0] if lines else []
    if not any(cell.strip() for cell in header):
        return [], [LineProblem(1, Problem.EMPTY)]
    problems = _header_problems(header)
    if problems:
        return [], problems
    columns = [h.strip().lower() for h in header]
    body = [
        (number, cells)
        for number, cells in enumerate(lines[1:], start=2)
        if any(cell.strip() for cell in cells)
    ]
    if not body:
        return [], [LineProblem(1, Problem.NO_LEARNERS)]
    if len(body) > MAX_ROWS:
        return [], [LineProblem(body[MAX_ROWS][0], Problem.TOO_MANY, {"limit": MAX_ROWS})]
    rows: list[RosterRow] = []
    first_line: dict[str, int] = {}
    for number, cells in body:
        if len(cells) != len(columns):
            problems.append(
                LineProblem(
                    number, Problem.FIELD_COUNT, {"count": len(cells), "expected": len(columns)}
                )
            )
            continue
        row, row_problems = _row(number, dict(zip(columns, cells, strict=True)))
        problems += row_problems
        if row is None:
            continue
        key = name_key(row.username)
        if key in first_line:
            problems.append(
                LineProblem(
                    number,
                    Problem.DUPLICATE,
                    {"name": repr(row.username), "other": first_line[key]},
                )
            )
            continue
        first_line[key] = number
        rows.append(row)
    return rows, problems


def check_roster(*, session: Session, text: str) -> list[RosterRow]:
    """The roster's rows if every one may be created, else ``RosterRejected`` with them all."""
    rows, problems = parse_roster(text)
    taken = account_store.taken_name_keys(
        session=session, keys=[name_key(r.username) for r in rows]
    )
    problems += [
        LineProblem(r.line, Problem.TAKEN, {"name": repr(r.username)})
        for r in rows
        if name_key(r.username) in taken
    ]
    if problems:
        raise RosterRejected(sorted(problems, key=lambda p: p.line))
    return rows


def issue_link(*, session: Session, user: User, days: int) -> IssuedLink:
    """A new one-time link for ``user``; their earlier link, if any, stops working."""
    token = account_store.replace_signup_link(
        session=session, user=user, expires_at=utcnow() + timedelta(days=days)
    )
    return IssuedLink(user.name, user.display_name, token)


def import_roster(*, session: Session, text: str, link_days: int) -> list[IssuedLink]:
    """Create every learner of the roster with a link, or none (``RosterRejected``).

    Flushed, not committed: the caller commits once, so a failure anywhere creates nothing.
    """
    links = []
    for row in check_roster(session=session, text=text):
        user = create_account(session=session, name=row.username, role=Role.LEARNER)
        account_store.set_profile(
            session=session,
            user=user,
            display_name=row.display_name,
            email=row.email,
            section=row.section,
        )
        links.append(issue_link(session=session, user=user, days=link_days))
    return links


def links_csv(links: Sequence[IssuedLink], base_url: str) -> str:
    """``username,display_name,link``: the only copy of the links, to hand out."""
    return write_csv(
        [
            ("username", "display_name", "link"),
            *((link.username, link.display_name, link.url(base_url)) for link in links),
        ]
    )


@dataclass(frozen=True)
class ShownLink:
    """A link as the import's page shows it."""

    username: str
    display_name: str | None
    url: str


def _handoff_key(handle: str) -> Fernet:
    digest = hashlib.sha256(f"numjudge.roster.handoff:{handle}".encode()).digest()
    return Fernet(base64.urlsafe_b64encode(digest))


def hand_off(*, session: Session, instructor: User, links_body: str) -> str:
    """Keep an import's links CSV (``links_csv``) for ``HANDOFF_MINUTES``, sealed: the handle
    returned, which the page's address carries, is the only key to it. Flushed."""
    handle = secrets.token_urlsafe(32)
    account_store.put_handoff(
        session=session,
        handle_hash=hashlib.sha256(handle.encode()).hexdigest(),
        user=instructor,
        sealed=_handoff_key(handle).encrypt(links_body.encode()).decode(),
        expires_at=utcnow() + timedelta(minutes=HANDOFF_MINUTES),
    )
    return handle


def handed_off(*, session: Session, instructor: User, handle: str) -> str | None:
    """The links CSV kept under ``handle`` for ``instructor``; ``None`` once gone (or for
    another instructor, or a handle that was never given)."""
    sealed = account_store.get_handoff(
        session=session,
        handle_hash=hashlib.sha256(handle[:128].encode()).hexdigest(),
        user=instructor,
    )
    if sealed is None:
        return None
    return _handoff_key(handle).decrypt(sealed.encode()).decode()


def shown_links(links_body: str) -> list[ShownLink]:
    """The rows of a links CSV (``links_csv``)."""
    return [
        ShownLink(row["username"], row["display_name"] or None, row["link"])
        for row in csv.DictReader(io.StringIO(links_body))
    ]


def link_state(link: SignupLink | None, now: datetime | None = None) -> LinkState:
    if link is None:
        return LinkState.UNKNOWN
    if link.used_at is not None:
        return LinkState.USED
    if link.expires_at <= (now or utcnow()):
        return LinkState.EXPIRED
    return LinkState.VALID


def find_link(*, session: Session, token: str) -> tuple[SignupLink | None, LinkState]:
    link = account_store.get_signup_link(session=session, token=token[:128])
    state = link_state(link)
    if state is LinkState.VALID and link is not None and not link.user.is_active:
        return link, LinkState.DISABLED
    return link, state


def join(
    *,
    session: Session,
    settings: Settings,
    slots: HashSlots,
    address: str,
    link: SignupLink,
    password: str,
) -> User:
    """The learner of a valid link chooses their password; the link is used up.

    Under the sign-up throttle (``Throttled``); ``InvalidPassword`` if the password breaks the
    rule (the link still works then); ``LinkUsed`` if another request used the link first.
    """
    rule = signup_rule(settings)
    now = time.time()
    throttle.take(session=session, rule=rule, parts=(address,), now=now)
    session.commit()  # no transaction open through the hash: app/services/accounts.py
    claimed = False
    try:
        check_password(password)
        with slots.slot():
            # Claimed before the hash, in one conditional update: two requests holding the
            # link at once both found it valid, and both set a password and signed in.
            claimed = account_store.claim_signup_link(session=session, link=link, now=utcnow())
            session.commit()
            if not claimed:
                raise LinkUsed(f"the sign-up link of {link.user.name} was used meanwhile")
            set_password(session=session, user=link.user, password=password)
    except Exception:
        session.rollback()
        if claimed:
            account_store.release_signup_link(session=session, link=link)
            session.commit()
        throttle.give_back(session=session, rule=rule, parts=(address,), now=now)
        raise
    return link.user


def sections(*, session: Session) -> list[str]:
    """Every roster section in use, sorted (the gradebooks' filter)."""
    return account_store.list_sections(session=session)


def learner_names(*, session: Session) -> list[str]:
    """Every learner's name, sorted (the submission list's learner filter)."""
    return [u.name for u in account_store.list_users(session=session, role=Role.LEARNER)]


@dataclass(frozen=True)
class RosterEntry:
    user: User
    joined: bool
    link: LinkState | None  # None: never had a link (signed up on their own)
    dropped: bool  # enrolled in LMS contexts and a member of none of them now
    mail_state: MailState | None = None  # None: their current link was never e-mailed
    mail_error: str = ""  # why the e-mail failed
    outside_gradebooks: bool = False  # signed up on their own after a roster: not counted


def roster(*, session: Session, section: str | None = None) -> list[RosterEntry]:
    """Every learner (of ``section`` if given) with whether they have chosen a password,
    whether the LMS dropped them, where the e-mail with their link is, and whether the
    gradebooks leave them out."""
    learners = account_store.list_users(session=session, role=Role.LEARNER, section=section)
    ids = [u.id for u in learners]
    links = account_store.signup_links(session=session, user_ids=ids)
    dropped = lti_store.dropped_user_ids(session=session, user_ids=ids)
    outside = account_store.outside_gradebooks(session=session)
    now = utcnow()
    return [
        RosterEntry(
            u,
            u.password_hash is not None,
            link_state(links[u.id], now) if u.id in links else None,
            u.id in dropped,
            links[u.id].mail_state if u.id in links else None,
            links[u.id].mail_error if u.id in links else "",
            u.id in outside,
        )
        for u in learners
    ]


class RosterAction(Enum):
    """What an instructor can do to one learner from the roster (the CLI's ``users link``,
    ``disable`` and ``enable``, a password reset, and adding a learner who signed up on their
    own to the gradebooks)."""

    NEW_LINK = "link"  # a learner who has not joined: a new sign-up link, the old one dies
    RESET_PASSWORD = "reset"  # a learner who joined: the password is cleared, a link sets one
    DISABLE = "disable"
    ENABLE = "enable"
    ADD_TO_GRADEBOOK = "gradebook"  # a learner who signed up on their own: counted from now


class ActionRefused(ValueError):
    """The action does not apply to this learner now (a link for a disabled account, enabling
    an active one...): the page offers only those that do."""


def actions_for(user: User) -> tuple[RosterAction, ...]:
    """The actions that apply to ``user`` as they are now."""
    add = (RosterAction.ADD_TO_GRADEBOOK,) if user.enrolment is Enrolment.SIGNED_UP else ()
    if not user.is_active:
        return (RosterAction.ENABLE, *add)
    link = RosterAction.RESET_PASSWORD if user.password_hash is not None else RosterAction.NEW_LINK
    return (link, RosterAction.DISABLE, *add)


def find_learner(*, session: Session, name: str) -> User | None:
    """The learner (not an instructor: their accounts are the CLI's) called ``name``."""
    user = account_store.get_user_by_name(session=session, name=name)
    return user if user is not None and user.role is Role.LEARNER else None


def act(*, session: Session, user: User, action: RosterAction, days: int) -> IssuedLink | None:
    """Do ``action`` to ``user`` (``ActionRefused`` if it does not apply); the new link of
    ``NEW_LINK`` and ``RESET_PASSWORD`` (shown once). Flushed, not committed.

    A reset clears the password and signs the learner out of every browser; their API tokens
    keep working (revoke them from the CLI if the account was taken over). Disabling signs
    them out and refuses their tokens; nothing they submitted is touched.
    """
    if action not in actions_for(user):
        raise ActionRefused(f"{action.value} does not apply to {user.name!r} now")
    match action:
        case RosterAction.NEW_LINK:
            return issue_link(session=session, user=user, days=days)
        case RosterAction.RESET_PASSWORD:
            account_store.set_password(session=session, user=user, password=None)
            end_all_sessions(session=session, user=user)
            return issue_link(session=session, user=user, days=days)
        case RosterAction.DISABLE | RosterAction.ENABLE:
            set_disabled(session=session, user=user, disabled=action is RosterAction.DISABLE)
            return None
        case RosterAction.ADD_TO_GRADEBOOK:
            user.enrolment = Enrolment.ENROLLED
            session.flush()
            return None
