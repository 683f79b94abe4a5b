"""app/services/throttle.py: counters every process shares, under requests sent at once."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy.orm import Session

from app.core.db import get_sessionmaker
from app.services import throttle
from app.services.throttle import Rule, Scope, Throttled

SENDERS = 8


def test_hits_taken_at_once_never_pass_the_limit(database_url: str) -> None:
    """A try of custom inputs is counted by ``take``: eight sent at the same moment, each in a
    session of its own as eight processes would, and only the limit's three pass. (``check``
    then ``hit`` let all eight pass their check before any of them counted.)"""
    rule = Rule(Scope.CUSTOM_INPUTS, 3, 60)
    parts = (f"at-once-{time.monotonic_ns()}",)
    now = time.time()
    sessions = get_sessionmaker(database_url)
    start = threading.Barrier(SENDERS)

    def send(_: int) -> bool:
        with sessions() as session:
            start.wait()
            try:
                throttle.take(session=session, rule=rule, parts=parts, now=now)
            except Throttled as refused:
                assert 1 <= refused.retry_after_s <= 60
                return False
            session.commit()
            return True

    with ThreadPoolExecutor(max_workers=SENDERS) as senders:
        passed = list(senders.map(send, range(SENDERS)))
    assert passed.count(True) == rule.limit


def test_hits_on_both_sides_of_a_window_boundary_add_up(db: Session) -> None:
    """Two failures just before a window ends and one just after lock a limit of three (with
    one window counted they did not, and a slow test or attacker crossed the boundary); the
    lock lasts until the current window ends, when the earlier hits stop counting."""
    rule = Rule(Scope.LOGIN_FAILURE_NAME, 3, 300)
    parts = ("203.0.113.9", "ada")
    boundary = 300 * 5_000_000
    for moment in (boundary - 2, boundary - 1, boundary + 1):
        throttle.check(session=db, rule=rule, parts=parts, now=moment)
        throttle.hit(session=db, rule=rule, parts=parts, now=moment)
    with pytest.raises(Throttled) as locked:
        throttle.check(session=db, rule=rule, parts=parts, now=boundary + 2)
    assert locked.value.retry_after_s == 298
    with pytest.raises(Throttled):
        throttle.take(session=db, rule=rule, parts=parts, now=boundary + 3)
    throttle.check(session=db, rule=rule, parts=parts, now=boundary + 300)  # the next window
