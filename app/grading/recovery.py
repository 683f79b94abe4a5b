"""Recovery: wake-ups sent again for rows that lost theirs, in every process.

At start-up every queued row is sent again (its message may have died with a process or
never been sent), and running rows whose worker on this host is dead are put back; every
``recovery_interval_s`` rows whose lease ran out are, and so are the running rows of a worker
on any machine whose heartbeat stopped ``worker_silence_s`` ago (a killed worker's rows come
back within seconds, not at the end of their lease); the silent workers' records are removed.
After a pass, when ``course.toml`` changed (and after the first), the LMS scores the schedule now
counts differently are sent again (``passback.reconcile``).
A pass starts only when the queue answers and no other process is in one, so an outage costs
no row a change and no log line beyond the one warning.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from datetime import datetime, timedelta
from enum import Enum

from app.core.backoff import Backoff
from app.models import SubmissionStatus, utcnow
from app.runtime.context import GradingRuntime
from app.runtime.queue import QueueUnavailable
from app.services.lti import passback
from app.services.submissions import log_event
from app.store import leases as lease_store
from app.store import similarity as similarity_store
from app.store import workers as worker_store
from graders.api import AssignmentSchedule, GraderError

logger = logging.getLogger(__name__)


class RequeueReason(Enum):
    """Why a row went back to the queue (the ``reason`` of ``submission.requeued``)."""

    STARTUP = "startup"
    """A process started: every queued row's wake-up is sent again."""
    LEASE = "lease"
    WORKER_SILENT = "worker_silent"
    """Its worker's heartbeat stopped (``worker_silence_s``), long before the lease ends."""


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def worker_is_dead(worker: str | None) -> bool:
    """True when ``worker`` ran on this host in a process that no longer runs (or is us)."""
    if not worker or ":" not in worker:
        return False
    host, _, pid_text = worker.rpartition(":")
    if host != socket.gethostname() or not pid_text.isdigit():
        return False
    pid = int(pid_text)
    return pid == os.getpid() or not _pid_alive(pid)


def recover(
    *, runtime: GradingRuntime, startup: bool = False, now: datetime | None = None
) -> list[str]:
    """Send wake-ups for the rows left behind; returns their ids.

    Raises :class:`QueueUnavailable` when the queue is down, before a row is touched: the
    rows stay as they are until a pass can send their wake-ups. One process at a time does
    it (the others' passes find nothing to do).
    """
    now = now or utcnow()
    runtime.queue.check()
    lease = now + timedelta(seconds=runtime.settings.queue_lease_s)
    silent_since = now - timedelta(seconds=runtime.settings.worker_silence_s)
    requeued: list[str] = []
    with runtime.sessions() as session:
        if not lease_store.take_recovery_turn(session=session):
            return []
        rows = {
            row.id: row
            for row in lease_store.unfinished_submissions(
                session=session, expired_before=None if startup else now
            )
        }
        silent_rows = lease_store.silent_workers_running(session=session, silent_since=silent_since)
        silent = {row.id for row in silent_rows}
        rows.update((row.id, row) for row in silent_rows if row.id not in rows)
        for row in rows.values():
            expired = row.lease_expires_at is None or row.lease_expires_at < now
            if (
                not expired
                and row.status is SubmissionStatus.RUNNING
                and row.id not in silent
                and not worker_is_dead(row.worker)
            ):
                continue
            if lease_store.requeue_submission(
                session=session,
                submission_id=row.id,
                seen_lease=row.lease_expires_at,
                lease_expires_at=lease,
            ):
                requeued.append(row.id)
                reason = (
                    RequeueReason.STARTUP
                    if startup
                    else RequeueReason.WORKER_SILENT
                    if row.id in silent
                    else RequeueReason.LEASE
                )
                log_event(
                    logger,
                    "submission.requeued",
                    row,
                    reason=reason.value,
                    was=row.status.value,
                    attempts=row.attempts,
                )
        worker_store.forget_silent_workers(session=session, silent_since=silent_since)
        session.commit()
        for index, submission_id in enumerate(requeued):
            try:
                runtime.queue.enqueue(submission_id)
            except QueueUnavailable:
                lease_store.mark_unsent(session=session, submission_ids=requeued[index:], now=now)
                session.commit()
                raise
        if startup:
            # A report whose computation a stopped worker took with it is still queued: sent
            # again (computing one twice stores the same result).
            for report_id in similarity_store.queued_report_ids(session=session):
                runtime.queue.enqueue_report(report_id)
    return requeued


class RecoveryThread(threading.Thread):
    """Runs :func:`recover` every ``recovery_interval_s`` until stopped, backing off while the
    database or the queue is down."""

    def __init__(self, runtime: GradingRuntime) -> None:
        super().__init__(name="numjudge-recovery", daemon=True)
        self.runtime = runtime
        self._stop_event = threading.Event()
        self._outage = Backoff(max_s=runtime.settings.backoff_max_s)
        self._schedule: AssignmentSchedule | None = None

    def run(self) -> None:
        while not self._stop_event.wait(self.runtime.settings.recovery_interval_s):
            try:
                recover(runtime=self.runtime)
                if self.schedule_changed():
                    passback.reconcile(self.runtime)
            except QueueUnavailable as exc:  # the consumer threads meet the same outage
                self.runtime.queue.outage.failed(self._stop_event, "queue.unavailable", exc)
            except Exception as exc:  # the database is down: it comes back
                self._outage.failed(self._stop_event, "recovery.failed", exc)
            else:
                self._outage.succeeded("recovery.resumed")

    def schedule_changed(self) -> bool:
        """Whether ``course.toml`` reads differently from the last pass (the first pass: yes).
        A file that does not load changes nothing: the gradebook pages say why."""
        try:
            schedule = self.runtime.catalog.schedule()
        except GraderError:
            return False
        changed, self._schedule = schedule != self._schedule, schedule
        return changed

    def stop(self) -> None:
        self._stop_event.set()
