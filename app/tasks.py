"""The grading queue: Huey on SQLite (one machine, no server) or Redis (many machines).

The queue only carries submission ids; the database row stays the truth, so a lost or
duplicated message is harmless (see ``app.services.grading``).
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from huey import Huey, MemoryHuey, RedisHuey, SqliteHuey
from huey.consumer import Consumer, Worker

logger = logging.getLogger(__name__)

QUEUE_NAME = "numjudge"
GRADE_TASK = "grade_submission"


def grade_submission(submission_id: str) -> None:
    """The Huey task: grade one submission (thin; the work is in the grading service)."""
    from app.services.grading import run_submission

    run_submission(submission_id)


def make_huey(url: str) -> Huey:
    """``sqlite:///path``, ``redis://…`` / ``rediss://…`` or ``memory://``."""
    scheme = urlparse(url).scheme
    if scheme == "sqlite":
        path = url.split("sqlite:///", 1)[1] if "sqlite:///" in url else ""
        if not path:
            raise ValueError(f"queue URL {url!r}: expected sqlite:///relative/or//abs/path.db")
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        # fsync off: a message lost in a crash is re-sent by lease recovery.
        return SqliteHuey(QUEUE_NAME, filename=path, results=False, fsync=False)
    if scheme in ("redis", "rediss", "unix"):
        return RedisHuey(QUEUE_NAME, url=url, results=False)
    if scheme == "memory":
        return MemoryHuey(QUEUE_NAME, results=False)
    raise ValueError(f"queue URL {url!r}: use sqlite:///…, redis://… or memory://")


class _WakeableWorker(Worker):  # type: ignore[misc]
    """A Huey worker whose idle sleep ends as soon as this process enqueues a task."""

    wake: threading.Semaphore

    def sleep(self) -> None:
        self.delay = min(self.delay, self.max_delay)
        self.wake.acquire(timeout=self.delay)
        self.delay *= self.backoff


class GradingConsumer(Consumer):  # type: ignore[misc]
    """Huey's consumer with wakeable workers; ``embedded`` leaves signals to the host."""

    def __init__(self, huey: Huey, wake: threading.Semaphore, *, embedded: bool,
                 **kwargs: Any) -> None:
        self._wake = wake
        self._embedded = embedded
        super().__init__(huey, **kwargs)

    def _create_worker(self) -> Worker:
        worker = _WakeableWorker(huey=self.huey, stop_flag=self.stop_flag,
                                 default_delay=self.default_delay, max_delay=self.max_delay,
                                 backoff=self.backoff, max_tasks=self.max_tasks)
        worker.wake = self._wake
        return worker

    def _set_signal_handlers(self) -> None:
        if not self._embedded:
            super()._set_signal_handlers()

    def stop(self, graceful: bool = False) -> None:
        self.stop_flag.set()
        for _ in range(self.workers):
            self._wake.release()
        super().stop(graceful=graceful)


class GradingQueue:
    """One process's handle on the queue: enqueue ids, run a consumer."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.huey = make_huey(url)
        self._task = self.huey.task(name=GRADE_TASK, retries=0)(grade_submission)
        self._wake = threading.Semaphore(0)
        self.consumer: GradingConsumer | None = None

    def enqueue(self, submission_id: str, *, delay: float | None = None) -> None:
        if delay:
            self._task.schedule(args=(submission_id,), delay=delay)
        else:
            self._task(submission_id)
        self._wake.release()

    def pending(self) -> int:
        return int(self.huey.pending_count())

    def make_consumer(self, workers: int, *, embedded: bool) -> GradingConsumer:
        blocking = bool(getattr(self.huey.storage, "blocking", False))
        self.consumer = GradingConsumer(
            self.huey, self._wake, embedded=embedded, workers=workers, worker_type="thread",
            periodic=False, initial_delay=0.05, backoff=1.5,
            max_delay=1.0 if blocking else 0.5, check_worker_health=True,
            shutdown_timeout=10.0)
        return self.consumer

    def start_embedded(self, workers: int) -> GradingConsumer:
        """Start ``workers`` grading threads inside this process (the one-machine service)."""
        consumer = self.make_consumer(workers, embedded=True)
        consumer.start()
        logger.info("queue.consumer_started", extra={"workers": workers, "queue": self.url})
        return consumer

    def stop(self) -> None:
        if self.consumer is not None:
            self.consumer.stop(graceful=True)
            self.consumer = None
        storage_close = getattr(self.huey.storage, "close", None)
        if callable(storage_close):
            storage_close()
