"""The grading queue: Huey on SQLite (one machine, no server) or Redis (many machines).

A message is a wake-up carrying a submission id; the database row stays the truth and the
grading side chooses which queued row to grade next (``app.grading.lifecycle``), so a lost or
duplicated message is harmless. The queue knows nothing of grading: the consumer is handed
the function to call.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from huey import Huey, MemoryHuey, RedisHuey, SqliteHuey
from huey.consumer import Consumer, Scheduler, Worker

from app.core.backoff import Backoff
from app.core.redact import mask_url

logger = logging.getLogger(__name__)

GRADE_TASK = "grade_submission"
REPORT_TASK = "similarity_report"
PASSBACK_TASK = "lti_passback"
REPORT_PRIORITY = -10
"""Below every grading wake-up (priority 0): a consumer thread takes a report's or a grade
passback's message only when no grading message waits (SQLite and memory queues order by
priority; Redis's keeps the order sent)."""
SCHEDULER_INTERVAL_S = 1
"""How often the consumer's scheduler moves messages due by now (a passback waits for its
score's release and retries later) onto the queue: one storage read a second."""
Handler = Callable[[str], None]
PassbackHandler = Callable[[int, int], None]


class QueueUnavailable(Exception):
    """The queue's storage (Redis, the SQLite file) cannot be reached."""


def make_huey(url: str, name: str) -> Huey:
    """``sqlite:///path``, ``redis://…`` / ``rediss://…`` or ``memory://``."""
    scheme = urlparse(url).scheme
    if scheme == "sqlite":
        path = url.split("sqlite:///", 1)[1] if "sqlite:///" in url else ""
        if not path:
            raise ValueError(f"queue URL {url!r}: expected sqlite:///relative/or//abs/path.db")
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        # fsync off: a message lost in a crash is re-sent by recovery.
        return SqliteHuey(name, filename=path, results=False, fsync=False)
    if scheme in ("redis", "rediss", "unix"):
        return RedisHuey(name, url=url, results=False)
    if scheme == "memory":
        return MemoryHuey(name, results=False)
    raise ValueError(f"queue URL {url!r}: use sqlite:///…, redis://… or memory://")


class _WakeableWorker(Worker):  # type: ignore[misc]
    """A Huey worker whose idle sleep ends as soon as this process enqueues a task, and
    which backs off (exponential, capped, one log line per period) while the queue is down,
    where Huey would log a traceback on every poll."""

    wake: threading.Semaphore
    outage: Backoff

    def loop(self, now: Any = None) -> None:
        try:
            task = self.huey.dequeue()
        except Exception as exc:
            self.outage.failed(self.stop_flag, "queue.unavailable", exc)
            return
        self.outage.succeeded("queue.available")
        if task is not None and not self.huey.ready_to_run(task):
            # Sent for later: the scheduler puts it back on the queue when it is due. Only a
            # passback is sent for later; lost here, its record stays pending for a resend.
            try:
                self.huey.add_schedule(task)
            except Exception:
                logger.exception("queue.schedule_failed", extra={"task": task.id})
        elif task is not None:
            self.delay = self.default_delay
            # The task itself, not Huey's ``execute``: that also clears the task's revoke flag
            # in the storage afterwards, which during an outage turned a grading that was
            # stored into an ERROR with a traceback. Nothing here is ever revoked.
            try:
                task.execute()
            except Exception:
                logger.exception("queue.task_failed", extra={"task": task.id})
        elif not self.huey.storage.blocking:
            self.sleep()

    def sleep(self) -> None:
        self.delay = min(self.delay, self.max_delay)
        self.wake.acquire(timeout=self.delay)
        self.delay *= self.backoff


class _OutageAwareScheduler(Scheduler):  # type: ignore[misc]
    """Huey's scheduler (moving messages sent for later onto the queue once due), which during
    a queue outage backs off with the workers and logs in their one line per period, where
    Huey would log a traceback every second. No periodic tasks are used."""

    outage: Backoff

    def loop(self, now: Any = None) -> None:
        started = time.monotonic()
        try:
            for task in self.huey.read_schedule(now):
                self.huey.enqueue(task)
        except Exception as exc:
            self.outage.failed(self.stop_flag, "queue.unavailable", exc)
            return
        self.outage.succeeded("queue.available")
        self.sleep_for_interval(started, self.interval)


class GradingConsumer(Consumer):  # type: ignore[misc]
    """Huey's consumer with wakeable workers; ``embedded`` leaves signals to the host."""

    def __init__(
        self,
        huey: Huey,
        wake: threading.Semaphore,
        outage: Backoff,
        *,
        embedded: bool,
        **kwargs: Any,
    ) -> None:
        self._wake = wake
        self._outage = outage
        self._embedded = embedded
        super().__init__(huey, **kwargs)

    def _create_worker(self) -> Worker:
        worker = _WakeableWorker(
            huey=self.huey,
            stop_flag=self.stop_flag,
            default_delay=self.default_delay,
            max_delay=self.max_delay,
            backoff=self.backoff,
            max_tasks=self.max_tasks,
        )
        worker.wake = self._wake
        worker.outage = self._outage
        return worker

    def _create_scheduler(self) -> Scheduler:
        scheduler = _OutageAwareScheduler(
            huey=self.huey,
            stop_flag=self.stop_flag,
            interval=self.scheduler_interval,
            periodic=False,
        )
        scheduler.outage = self._outage
        return scheduler

    def _set_signal_handlers(self) -> None:
        if not self._embedded:
            super()._set_signal_handlers()

    def stop(self, graceful: bool = False) -> None:
        self.stop_flag.set()
        for _ in range(self.workers):
            self._wake.release()
        super().stop(graceful=graceful)


class GradingQueue:
    """One process's handle on the queue: send wake-ups, run a consumer of them."""

    def __init__(self, url: str, name: str = "numjudge", *, backoff_max_s: float = 5.0) -> None:
        self.url = url
        self.name = name
        self.huey = make_huey(url, name)
        self._handler: Handler | None = None
        self._report_handler: Handler | None = None
        self._task = self.huey.task(name=GRADE_TASK, retries=0)(self._dispatch)
        self._report_task = self.huey.task(name=REPORT_TASK, retries=0)(self._dispatch_report)
        self._passback_handler: PassbackHandler | None = None
        self._passback_task = self.huey.task(name=PASSBACK_TASK, retries=0)(self._dispatch_passback)
        self._wake = threading.Semaphore(0)
        self.outage = Backoff(max_s=backoff_max_s)
        """The queue's outages, one per process: its consumer threads and recovery share it."""
        self.consumer: GradingConsumer | None = None

    def _dispatch(self, submission_id: str) -> None:
        if self._handler is None:  # only a consumer executes tasks, and it sets the handler
            raise RuntimeError("a grading message reached a queue without a consumer")
        self._handler(submission_id)

    def _dispatch_report(self, report_id: str) -> None:
        if self._report_handler is None:
            raise RuntimeError("a report message reached a queue without a consumer")
        self._report_handler(report_id)

    def _dispatch_passback(self, link_id: int, attempt: int) -> None:
        if self._passback_handler is None:
            raise RuntimeError("a passback message reached a queue without a consumer")
        self._passback_handler(link_id, attempt)

    def enqueue_passback(self, link_id: int, attempt: int, eta: datetime) -> None:
        """Send attempt ``attempt`` (from 1) at a grade link's passback, run from ``eta`` on
        (an aware time); :class:`QueueUnavailable` if it cannot be sent."""
        priority = REPORT_PRIORITY if self.huey.storage.priority else None
        try:
            self._passback_task.schedule((link_id, attempt), eta=eta, priority=priority)
        except Exception as exc:
            raise QueueUnavailable(f"queue {self.url_for_logs}: {exc}") from exc
        self._wake.release()

    def enqueue_report(self, report_id: str) -> None:
        """Send a similarity report's wake-up; :class:`QueueUnavailable` if it cannot."""
        # Redis's plain storage has no priorities (it refuses one): there the message keeps
        # the order it was sent in.
        priority = REPORT_PRIORITY if self.huey.storage.priority else None
        try:
            self._report_task(report_id, priority=priority)
        except Exception as exc:
            raise QueueUnavailable(f"queue {self.url_for_logs}: {exc}") from exc
        self._wake.release()

    def enqueue(self, submission_id: str) -> None:
        """Send a wake-up for ``submission_id``; :class:`QueueUnavailable` if it cannot."""
        try:
            self._task(submission_id)
        except Exception as exc:
            raise QueueUnavailable(f"queue {self.url_for_logs}: {exc}") from exc
        self._wake.release()

    @property
    def url_for_logs(self) -> str:
        return mask_url(self.url)

    def pending(self) -> int:
        """Messages waiting in the storage (raises when it cannot be reached)."""
        return int(self.huey.pending_count())

    def check(self) -> None:
        """Raise :class:`QueueUnavailable` unless the storage answers now."""
        try:
            self.pending()
        except Exception as exc:
            raise QueueUnavailable(
                f"cannot reach the queue at {self.url_for_logs} ({exc}); check "
                "NUMJUDGE_QUEUE_URL and that the server is running"
            ) from exc

    def make_consumer(
        self,
        workers: int,
        handler: Handler,
        *,
        embedded: bool,
        reports: Handler | None = None,
        passbacks: PassbackHandler | None = None,
    ) -> GradingConsumer:
        """A consumer whose ``workers`` threads call ``handler(submission_id)`` per grading
        message, ``reports(report_id)`` per report message and ``passbacks(link_id, attempt)``
        per grade passback (None: such a message is an error, as in a process that makes no
        reports)."""
        self._handler = handler
        self._report_handler = reports
        self._passback_handler = passbacks
        blocking = bool(getattr(self.huey.storage, "blocking", False))
        self.consumer = GradingConsumer(
            self.huey,
            self._wake,
            self.outage,
            embedded=embedded,
            workers=workers,
            worker_type="thread",
            periodic=False,
            initial_delay=0.05,
            backoff=1.5,
            max_delay=1.0 if blocking else 0.5,
            check_worker_health=True,
            shutdown_timeout=10.0,
            scheduler_interval=SCHEDULER_INTERVAL_S,
        )
        return self.consumer

    def start_embedded(
        self,
        workers: int,
        handler: Handler,
        reports: Handler | None = None,
        passbacks: PassbackHandler | None = None,
    ) -> GradingConsumer:
        """Start ``workers`` grading threads inside this process (the one-machine service)."""
        consumer = self.make_consumer(
            workers, handler, embedded=True, reports=reports, passbacks=passbacks
        )
        consumer.start()
        logger.info(
            "queue.consumer_started", extra={"workers": workers, "queue": self.url_for_logs}
        )
        return consumer

    def stop(self) -> None:
        if self.consumer is not None:
            self.consumer.stop(graceful=True)
            self.consumer = None
        storage_close = getattr(self.huey.storage, "close", None)
        if callable(storage_close):
            storage_close()
