"""Accounts: creating them, signing in, passwords, disabling, revoking; for the web and the CLI.

Signing in costs the same for an unknown name as for a known one (a dummy hash is verified), so
the time of an answer does not tell which names exist. Password hashes (argon2id, ~64 MB each)
run at most ``max_concurrent_hashes`` at a time per process, and at most ``HASH_LINE_PER_SLOT``
requests per slot wait for one: a request beyond that line, or one that finds no free slot
within ``HASH_WAIT_S``, is refused with ``HashingBusy`` (429 and Retry-After on the web). The
line is what keeps a burst from holding the server's request threads (and so ``/healthz``)
while it waits.

No database transaction is open while a hash runs: a sign-up stores its throttle count and
commits before hashing, as the count's write would otherwise hold the database's write lock
(SQLite has one writer, PostgreSQL locks the counter's row) through the hash, and a burst of
sign-ups queued behind it until the lock timeout turned them into 500s.
"""

from __future__ import annotations

import re
import secrets
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from functools import lru_cache

from sqlalchemy.orm import Session

from app.core.config import Settings
from app.core.names import MAX_PASSWORD, check_new_name, check_password, name_key
from app.core.security import hash_password, verify_password
from app.models import ApiToken, Enrolment, Role, User, utcnow
from app.services import throttle
from app.services.auth import end_all_sessions
from app.services.throttle import Rule, Scope, Throttled
from app.store import accounts as account_store

HASH_WAIT_S = 2.0
HASH_LINE_PER_SLOT = 4
"""Requests that may wait per hashing slot: at ~0.1 s a hash, a wait of ~0.4 s at most."""
LOGIN_WINDOW_S = 300
SIGNUP_WINDOW_S = 3600
_DURATION = re.compile(r"(\d{1,5})([mhdw])")
_UNITS = {"m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


class NameTaken(ValueError):
    """Another account has this name once normalised."""


class AccountDisabled(Exception):
    """The right password of a disabled account: said plainly, since only its owner knows it."""


class WrongPassword(ValueError):
    """The current password given to change it is not the account's."""


class HashingBusy(Throttled):
    """Every password-hashing slot of this process is taken."""


class HashSlots:
    """At most ``count`` password hashes at once in this process, and ``line`` more requests
    waiting for one; a request beyond them is refused at once, holding no thread."""

    def __init__(self, count: int, wait_s: float = HASH_WAIT_S, line: int | None = None) -> None:
        self._running = threading.BoundedSemaphore(count)
        self._admitted = threading.BoundedSemaphore(
            count + (count * HASH_LINE_PER_SLOT if line is None else line)
        )
        self.wait_s = wait_s

    @contextmanager
    def slot(self) -> Iterator[None]:
        if not self._admitted.acquire(blocking=False):
            raise HashingBusy(1)
        try:
            if not self._running.acquire(timeout=self.wait_s):
                raise HashingBusy(1)
            try:
                yield
            finally:
                self._running.release()
        finally:
            self._admitted.release()


@lru_cache(maxsize=1)
def _dummy_hash() -> str:
    return hash_password(secrets.token_urlsafe(16))


def _login_rules(settings: Settings) -> tuple[Rule, Rule]:
    return (
        Rule(Scope.LOGIN_FAILURE_NAME, settings.login_failures_per_name, LOGIN_WINDOW_S),
        Rule(Scope.LOGIN_FAILURE_ADDRESS, settings.login_failures_per_address, LOGIN_WINDOW_S),
    )


def create_account(
    *,
    session: Session,
    name: str,
    role: Role = Role.LEARNER,
    password: str | None = None,
    slots: HashSlots | None = None,
) -> User:
    """A new user under the one name rule (``InvalidName``, ``InvalidPassword``, ``NameTaken``).

    ``slots``: hash the password within the process's hashing cap (the web pages).
    """
    name = check_new_name(name)
    if password is not None:
        check_password(password)
    if account_store.get_user_by_name(session=session, name=name) is not None:
        raise NameTaken(f"the name {name!r} is taken")
    if password is None or slots is None:
        return account_store.create_user(session=session, name=name, role=role, password=password)
    with slots.slot():
        return account_store.create_user(session=session, name=name, role=role, password=password)


def signup_is_open(*, session: Session, settings: Settings) -> bool:
    """Whether anyone may create a learner account on the web: as the settings say, else
    until the course has a roster (an instructor who imported their class keeps strangers
    out without a setting)."""
    if settings.signup_open is not None:
        return settings.signup_open
    return not account_store.has_roster(session=session)


def signup_rule(settings: Settings) -> Rule:
    """At most ``signup_limit`` accounts per hour per address (sign-ups and roster links)."""
    return Rule(Scope.SIGNUP_ADDRESS, settings.signup_limit, SIGNUP_WINDOW_S)


def sign_up(
    *,
    session: Session,
    settings: Settings,
    slots: HashSlots,
    address: str,
    name: str,
    password: str,
) -> User:
    """A learner account made on the web, at most ``signup_limit`` per hour per address,
    marked as signed up on their own (``Enrolment.SIGNED_UP``).

    Commits the throttle's count before the hash (the module's docstring says why); the
    caller commits the account."""
    rule = signup_rule(settings)
    now = time.time()
    throttle.take(session=session, rule=rule, parts=(address,), now=now)
    session.commit()
    try:
        user = create_account(session=session, name=name, password=password, slots=slots)
    except Exception:
        throttle.give_back(session=session, rule=rule, parts=(address,), now=now)
        raise
    # Once the course has a roster, the gradebooks list them only if an instructor adds them.
    user.enrolment = Enrolment.SIGNED_UP
    return user


def authenticate(
    *,
    session: Session,
    settings: Settings,
    slots: HashSlots,
    address: str,
    name: str,
    password: str,
) -> User | None:
    """The user if ``password`` is theirs, else None; ``AccountDisabled`` if it is theirs but
    the account is disabled; ``Throttled`` after many failures.

    Failures are counted per (address, name) and per address, never per name alone: nobody can
    lock a name out for everyone else.
    """
    per_name, per_address = _login_rules(settings)
    name_parts = (address, name_key(name))
    throttle.check(session=session, rule=per_name, parts=name_parts)
    throttle.check(session=session, rule=per_address, parts=(address,))
    user = account_store.get_user_by_name(session=session, name=name)
    stored = user.password_hash if user is not None else None
    with slots.slot():
        valid = verify_password(stored or _dummy_hash(), password[:MAX_PASSWORD])
    if valid and stored is not None and user is not None:
        throttle.forget(session=session, rule=per_name, parts=name_parts)
        if not user.is_active:
            raise AccountDisabled(f"the account {user.name!r} is disabled")
        return user
    throttle.hit(session=session, rule=per_name, parts=name_parts)
    throttle.hit(session=session, rule=per_address, parts=(address,))
    return None


def set_password(*, session: Session, user: User, password: str) -> None:
    """A new password (under the rule); every signed-in browser of the user is signed out."""
    account_store.set_password(session=session, user=user, password=check_password(password))
    end_all_sessions(session=session, user=user)


def change_password(
    *,
    session: Session,
    settings: Settings,
    slots: HashSlots,
    address: str,
    user: User,
    current: str,
    new: str,
) -> None:
    """The user's own change: ``WrongPassword`` unless ``current`` is theirs (counted as a
    failed sign-in, so a borrowed browser cannot guess it), ``InvalidPassword`` for a new one
    that breaks the rule. Every browser of the user is signed out; the caller signs this one
    in again."""
    per_name, per_address = _login_rules(settings)
    name_parts = (address, user.name_key)
    throttle.check(session=session, rule=per_name, parts=name_parts)
    check_password(new)
    with slots.slot():
        valid = user.password_hash is not None and verify_password(
            user.password_hash, current[:MAX_PASSWORD]
        )
    if not valid:
        throttle.hit(session=session, rule=per_name, parts=name_parts)
        throttle.hit(session=session, rule=per_address, parts=(address,))
        raise WrongPassword("the current password is wrong")
    with slots.slot():
        set_password(session=session, user=user, password=new)


def set_disabled(*, session: Session, user: User, disabled: bool) -> None:
    """Disable (no sign-in, no token, sessions ended at once) or enable an account."""
    account_store.set_disabled_at(
        session=session, user=user, disabled_at=utcnow() if disabled else None
    )
    if disabled:
        end_all_sessions(session=session, user=user)


def revoke(*, session: Session, user: User, prefix: str | None = None) -> tuple[int, int]:
    """Revoke tokens (those starting with ``prefix`` only, if given) and, without a prefix,
    end every web session too. Returns (tokens revoked, sessions ended)."""
    tokens = account_store.revoke_tokens(session=session, user=user, prefix=prefix)
    sessions = end_all_sessions(session=session, user=user) if prefix is None else 0
    return tokens, sessions


def parse_duration(text: str) -> timedelta:
    """``90d``, ``12h``, ``30m``, ``2w`` as a duration; ``ValueError`` otherwise."""
    match = _DURATION.fullmatch(text.strip())
    if match is None or int(match.group(1)) == 0:
        raise ValueError(f"{text!r} is not a duration like 90d, 12h, 30m or 2w")
    return timedelta(**{_UNITS[match.group(2)]: int(match.group(1))})


def issue_token(
    *, session: Session, user: User, lifetime: timedelta | None = None
) -> tuple[ApiToken, str]:
    """A new API token, expiring after ``lifetime`` if given; the row and the token."""
    expires_at = utcnow() + lifetime if lifetime is not None else None
    return account_store.create_token(session=session, user=user, expires_at=expires_at)


def revoke_token(*, session: Session, user: User, token_id: int) -> bool:
    """Revoke one of ``user``'s tokens: from the next request on, it gets 401. False if
    ``user`` has no such live token."""
    return account_store.revoke_token(session=session, user=user, token_id=token_id)


def active_tokens(*, session: Session, user: User) -> list[ApiToken]:
    """``user``'s tokens that are not revoked (the account page lists them)."""
    return [
        t for t in account_store.list_tokens(session=session, user=user) if t.revoked_at is None
    ]
