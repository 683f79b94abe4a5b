"""app/services/throttle.py: counters every process shares, under requests sent at once."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

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
