"""In-process wake-ups for long-polls: a grading thread tells waiting requests it finished."""

from __future__ import annotations

import asyncio
import threading
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime

from app.models import utcnow
from app.schemas import SubmissionOut


@dataclass(eq=False)
class Waiter:
    """A waiting request: ``event`` is set when the result is stored; ``result`` then holds
    it when the grader was in this process."""

    event: asyncio.Event = field(default_factory=asyncio.Event)
    result: SubmissionOut | None = None

    def deliver(self, result: SubmissionOut | None) -> None:
        self.result = result
        self.event.set()


class ResultWaiters:
    """Maps submission ids to the requests waiting for them."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiting: dict[str, list[tuple[asyncio.AbstractEventLoop, Waiter]]] = defaultdict(list)

    def register(self, submission_id: str) -> Waiter:
        """A waiter for ``submission_id`` (call inside the request's event loop)."""
        waiter = Waiter()
        with self._lock:
            self._waiting[submission_id].append((asyncio.get_running_loop(), waiter))
        return waiter

    def unregister(self, submission_id: str, waiter: Waiter) -> None:
        with self._lock:
            entries = self._waiting.get(submission_id, [])
            entries[:] = [(loop, w) for loop, w in entries if w is not waiter]
            if not entries:
                self._waiting.pop(submission_id, None)

    def notify(
        self,
        submission_id: str,
        result: SubmissionOut | None = None,
        at: datetime | None = None,
    ) -> None:
        """Wake every request waiting for ``submission_id`` (safe from any thread), at ``at``
        if given: the result's release, which no waiter may see before (the calling thread
        goes on at once; each request's own loop keeps the timer)."""
        with self._lock:
            entries = self._waiting.pop(submission_id, [])
        delay = max(0.0, (at - utcnow()).total_seconds()) if at is not None else 0.0
        for loop, waiter in entries:
            if not loop.is_closed():
                loop.call_soon_threadsafe(loop.call_later, delay, waiter.deliver, result)

    def __len__(self) -> int:
        with self._lock:
            return sum(len(v) for v in self._waiting.values())
