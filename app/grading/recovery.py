"""Recovery: wake-ups sent again for rows that lost theirs, in every process.

At start-up every queued row is sent again (its message may have died with a process or
never been sent), and running rows whose worker on this host is dead are put back; every
``recovery_interval_s`` rows whose lease ran out are. A row whose wake-up cannot be sent
(the queue is down) stays due, so the next pass tries again.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from datetime import datetime, timedelta

from app.core.backoff import Backoff
from app.grading.queue import QueueUnavailable
from app.grading.runtime import GradingRuntime
from app.models import SubmissionStatus, utcnow
from app.services.submissions import log_event
from app.store import leases as lease_store

logger = logging.getLogger(__name__)


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


def recover(*, runtime: GradingRuntime, startup: bool = False,
            now: datetime | None = None) -> list[str]:
    """Send wake-ups for the rows left behind; returns their ids.

    Raises :class:`QueueUnavailable` when the queue is down (the rows stay due).
    """
    now = now or utcnow()
    lease = now + timedelta(seconds=runtime.settings.queue_lease_s)
    requeued: list[str] = []
    with runtime.sessions() as session:
        rows = lease_store.unfinished_submissions(session=session,
                                                  expired_before=None if startup else now)
        for row in rows:
            expired = row.lease_expires_at is None or row.lease_expires_at < now
            if not expired and row.status is SubmissionStatus.RUNNING and \
                    not worker_is_dead(row.worker):
                continue
            if lease_store.requeue_submission(session=session, submission_id=row.id,
                                              seen_lease=row.lease_expires_at,
                                              lease_expires_at=lease):
                requeued.append(row.id)
                log_event(logger, "submission.requeued", row,
                          reason="startup" if startup else "lease", was=row.status.value,
                          attempts=row.attempts)
        session.commit()
        for index, submission_id in enumerate(requeued):
            try:
                runtime.queue.enqueue(submission_id)
            except QueueUnavailable:
                lease_store.mark_unsent(session=session, submission_ids=requeued[index:], now=now)
                session.commit()
                raise
    return requeued


class RecoveryThread(threading.Thread):
    """Runs :func:`recover` every ``recovery_interval_s`` until stopped, backing off while the
    database or the queue is down."""

    def __init__(self, runtime: GradingRuntime) -> None:
        super().__init__(name="numjudge-recovery", daemon=True)
        self.runtime = runtime
        self._stop_event = threading.Event()
        self._outage = Backoff(max_s=runtime.settings.backoff_max_s)

    def run(self) -> None:
        while not self._stop_event.wait(self.runtime.settings.recovery_interval_s):
            try:
                recover(runtime=self.runtime)
            except Exception as exc:  # database or queue down: both come back
                self._outage.failed(self._stop_event, "recovery.failed", exc)
            else:
                self._outage.succeeded("recovery.resumed")

    def stop(self) -> None:
        self._stop_event.set()
