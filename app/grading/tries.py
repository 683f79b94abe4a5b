"""Tries of custom inputs running in this process: one per learner at a time.

A try does not go through the queue: the request's own thread runs both calls on this
process's sandbox pool (app/grading/engine.py), so the queue's per-learner quota
(``max_waiting_per_learner``) never counted it. Without this, one learner sending tries at
once (the rate is off by default, and a rate does not bound how many run together) held every
zygote of the pool, which this process's gradings share, and every thread the server answers
requests with, while each waited its turn: every other learner waited behind them.
"""

from __future__ import annotations

import threading
from contextlib import ExitStack


class TryRunning(Exception):
    """The learner already has a try running in this process."""


class TriesInFlight:
    """The learners with a try running in this process."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: set[int] = set()

    def claim(self, user_id: int) -> ExitStack:
        """The learner's place, held until the returned context exits; ``TryRunning`` if it
        is taken."""
        with self._lock:
            if user_id in self._running:
                raise TryRunning(user_id)
            self._running.add(user_id)
        place = ExitStack()
        place.callback(self._release, user_id)
        return place

    def _release(self, user_id: int) -> None:
        with self._lock:
            self._running.discard(user_id)
