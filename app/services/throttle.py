"""Throttles kept in the database, so every process and machine of the service sees them.

A throttle counts hits of a key (``login|203.0.113.7|ada``) in fixed windows: once a key has
``limit`` hits in the current window and the one before it together, it must wait for the
current window's end (when the earlier window's hits stop counting). Counting the window
before too means hits that straddle a boundary still add up: with the current window alone,
two failures just before it and one just after never locked a limit of three, and twice the
limit passed in a moment around each boundary. Keys are stored as
SHA-256 (no addresses or names in the table). The `limits` library has no SQL storage (memory,
Redis, Memcached, MongoDB), and the database is the one store every numjudge deployment has.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from enum import Enum

from sqlalchemy.orm import Session

from app.store import throttles as throttle_store


class Scope(Enum):
    """What is counted; the value prefixes the key."""

    LOGIN_FAILURE_NAME = "login-name"  # failed sign-ins for one name from one address
    LOGIN_FAILURE_ADDRESS = "login-address"  # failed sign-ins from one address, any name
    SIGNUP_ADDRESS = "signup-address"  # accounts created from one address
    CUSTOM_INPUTS = "custom-inputs"  # a learner's tries of their own inputs
    CUSTOM_INPUTS_CPU = "custom-inputs-cpu"  # the milliseconds of CPU those tries took


@dataclass(frozen=True)
class Rule:
    scope: Scope
    limit: int
    window_s: int


class Throttled(Exception):
    """Too many hits: try again in ``retry_after_s`` seconds."""

    def __init__(self, retry_after_s: int) -> None:
        super().__init__(f"throttled for {retry_after_s} s")
        self.retry_after_s = retry_after_s


def _key_hash(scope: Scope, parts: tuple[str, ...]) -> str:
    return hashlib.sha256("|".join((scope.value, *parts)).encode()).hexdigest()


def _window(rule: Rule, now: float) -> tuple[int, int]:
    start = int(now) // rule.window_s * rule.window_s
    return start, start + rule.window_s


def _earlier_hits(session: Session, rule: Rule, key_hash: str, now: float) -> int:
    """The key's hits in the window before the current one."""
    start, _ = _window(rule, now)
    return throttle_store.get_hits(
        session=session, key_hash=key_hash, window_start=start - rule.window_s
    )


def check(
    *, session: Session, rule: Rule, parts: tuple[str, ...], now: float | None = None
) -> None:
    """Raise ``Throttled`` if the key already has ``rule.limit`` hits in this window and the
    one before."""
    now = time.time() if now is None else now
    start, end = _window(rule, now)
    key_hash = _key_hash(rule.scope, parts)
    current = throttle_store.get_hits(session=session, key_hash=key_hash, window_start=start)
    if current + _earlier_hits(session, rule, key_hash, now) >= rule.limit:
        raise Throttled(max(1, end - int(now)))


def hit(
    *,
    session: Session,
    rule: Rule,
    parts: tuple[str, ...],
    now: float | None = None,
    hits: int = 1,
) -> int:
    """Count ``hits`` (one, or what a try cost) and forget windows that are over; the key's
    hits in this window."""
    now = time.time() if now is None else now
    start, end = _window(rule, now)
    throttle_store.delete_hits(session=session, now=int(now))
    return throttle_store.count_hit(
        session=session,
        key_hash=_key_hash(rule.scope, parts),
        window_start=start,
        window_end=end,
        hits=hits,
    )


def take(*, session: Session, rule: Rule, parts: tuple[str, ...], now: float | None = None) -> None:
    """Count one hit, and raise ``Throttled`` if that puts the key over ``rule.limit`` in this
    window and the one before. One atomic upsert both counts and tells: ``check`` then ``hit``
    let requests sent at once all pass the check before any of them counted."""
    now = time.time() if now is None else now
    current = hit(session=session, rule=rule, parts=parts, now=now)
    earlier = _earlier_hits(session, rule, _key_hash(rule.scope, parts), now)
    if current + earlier > rule.limit:
        raise Throttled(max(1, _window(rule, now)[1] - int(now)))


def give_back(
    *, session: Session, rule: Rule, parts: tuple[str, ...], now: float | None = None
) -> None:
    """Undo one ``take`` whose work failed (a sign-up whose name was taken): the throttle
    counts what was done, while ``take`` had to count it before doing it."""
    now = time.time() if now is None else now
    start, end = _window(rule, now)
    throttle_store.count_hit(
        session=session,
        key_hash=_key_hash(rule.scope, parts),
        window_start=start,
        window_end=end,
        hits=-1,
    )


def forget(*, session: Session, rule: Rule, parts: tuple[str, ...]) -> None:
    throttle_store.delete_hits(session=session, key_hash=_key_hash(rule.scope, parts))
