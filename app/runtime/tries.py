"""Tries of custom inputs running in this process: one per learner, and at most half the
sandbox pool in all.

A try does not go through the queue: the request's own thread runs both calls on this
process's sandbox pool (app/runtime/engine.py), which the process's gradings share, so the
queue's per-learner quota (``max_waiting_per_learner``) and its lanes never counted it.
Without these bounds, one learner sending tries at once (the rate is off by default, and a
rate does not bound how many run together) held every zygote of the pool and every thread the
server answers requests with while each waited its turn: every other learner's gradings and
requests waited behind them.
"""

from __future__ import annotations

import threading
from contextlib import ExitStack


class TryRunning(Exception):
    """The learner already has a try running in this process."""


class TriesBusy(Exception):
    """As many tries as this process allows are running."""


class TriesInFlight:
    """The learners with a try running in this process; at most ``limit`` of them."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._lock = threading.Lock()
        self._running: set[int] = set()

    @classmethod
    def for_pool(cls, pool_size: int) -> TriesInFlight:
        """Half the pool (at least one): the other half stays for the gradings."""
        return cls(max(1, pool_size // 2))

    def claim(self, user_id: int) -> ExitStack:
        """The learner's place, held until the returned context exits; ``TryRunning`` if it
        is taken, ``TriesBusy`` if every place is."""
        with self._lock:
            if user_id in self._running:
                raise TryRunning(user_id)
            if len(self._running) >= self.limit:
                raise TriesBusy(self.limit)
            self._running.add(user_id)
        place = ExitStack()
        place.callback(self._release, user_id)
        return place

    def _release(self, user_id: int) -> None:
        with self._lock:
            self._running.discard(user_id)
