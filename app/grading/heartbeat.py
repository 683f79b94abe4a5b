"""A grading process's heartbeat in the database, with a canary grading that proves its
sandbox works (``GET /healthz`` reads them)."""

from __future__ import annotations

import logging
import socket
import threading
from dataclasses import dataclass
from datetime import datetime, timedelta

from app.core.backoff import Backoff
from app.core.config import Settings
from app.core.db import session_scope
from app.models import utcnow
from app.runtime.context import GradingRuntime, worker_id
from app.store import workers as worker_store

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Canary:
    at: datetime
    ok: bool
    message: str


def run_canary(runtime: GradingRuntime) -> Canary:
    """A tiny known submission through this process's sandbox (``graders.canary``)."""
    at = utcnow()
    result = runtime.canary()
    return Canary(at, result.ok, result.message[:500])


class HeartbeatThread(threading.Thread):
    """Every ``heartbeat_interval_s``: a canary if the last is ``canary_interval_s`` old or a
    working folder of the sandbox vanished (the canary makes it again first), then the
    heartbeat row. The first beat happens in :meth:`beat_now`, before grading starts."""

    def __init__(self, runtime: GradingRuntime, threads: int) -> None:
        super().__init__(name="numjudge-heartbeat", daemon=True)
        self.runtime = runtime
        self.threads = threads
        self.started_at = utcnow()
        self._stop_event = threading.Event()
        self._last_canary: Canary | None = None
        self._outage = Backoff(max_s=runtime.settings.backoff_max_s)

    def beat_now(self) -> None:
        settings = self.runtime.settings
        canary = None
        last = self._last_canary
        if (
            last is None
            or (utcnow() - last.at).total_seconds() >= settings.canary_interval_s
            or self.runtime.missing()
        ):
            canary = self._last_canary = run_canary(self.runtime)
            if not canary.ok:
                logger.error("sandbox.canary_failed", extra={"error": canary.message})
        with self.runtime.sessions() as session:
            worker_store.beat(
                session=session,
                worker=worker_id(),
                threads=self.threads,
                started_at=self.started_at,
                now=utcnow(),
                canary=(canary.at, canary.ok, canary.message) if canary else None,
            )
            session.commit()

    def run(self) -> None:
        while not self._stop_event.wait(self.runtime.settings.heartbeat_interval_s):
            try:
                self.beat_now()
            except Exception as exc:
                self._outage.failed(self._stop_event, "heartbeat.failed", exc)
            else:
                self._outage.succeeded("heartbeat.resumed")

    def stop(self) -> None:
        self._stop_event.set()
        try:
            with self.runtime.sessions() as session:
                worker_store.forget_worker(session=session, worker=worker_id())
                session.commit()
        except Exception as exc:  # the row then ages out of /healthz by itself
            logger.warning("heartbeat.not_removed", extra={"error": str(exc)[:200]})


def local_worker_healthy(settings: Settings) -> str:
    """Why no grading process on this host is healthy ("" when one is): a heartbeat within
    three periods and a passing canary within ``canary_max_age_s``."""
    now = utcnow()
    since = now - timedelta(seconds=3 * settings.heartbeat_interval_s)
    with session_scope(settings.database_url) as session:
        live = [
            w
            for w in worker_store.live_workers(session=session, since=since)
            if w.id.rpartition(":")[0] == socket.gethostname()
        ]
        if not live:
            return f"no heartbeat from {socket.gethostname()} since {since:%H:%M:%S}"
        fresh = now - timedelta(seconds=settings.canary_max_age_s)
        if not any(w.canary_ok and w.canary_at is not None and w.canary_at >= fresh for w in live):
            return "; ".join(w.canary_message or "no recent canary" for w in live)
    return ""
