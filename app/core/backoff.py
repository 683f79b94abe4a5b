"""Waiting out an outage (database, queue): exponential, capped, logged once per period."""

from __future__ import annotations

import logging
import threading
import time

logger = logging.getLogger(__name__)


class Backoff:
    """Delays after consecutive failures: ``first_s``, doubled each time, at most ``max_s``.

    Shared by the threads that meet the same outage: one warning when it starts (then at
    most one reminder per ``log_every_s``, as information), one line when it ends.
    """

    def __init__(
        self, *, first_s: float = 0.1, max_s: float = 5.0, log_every_s: float = 30.0
    ) -> None:
        self.first_s = first_s
        self.max_s = max_s
        self.log_every_s = log_every_s
        self._lock = threading.Lock()
        self._failures = 0
        self._since: float | None = None
        self._logged_at = 0.0

    def failed(self, stop: threading.Event, event: str, exc: BaseException) -> None:
        """Note a failure, log it if due, and sleep the next delay (or until ``stop``)."""
        now = time.monotonic()
        with self._lock:
            self._failures += 1
            if self._since is None:
                self._since = now
            delay = min(self.max_s, self.first_s * 2 ** (self._failures - 1))
            due = now - self._logged_at >= self.log_every_s
            first = self._failures == 1
            if due:
                self._logged_at = now
            down_s = now - self._since
        if due:
            logger.log(
                logging.WARNING if first else logging.INFO,
                event,
                extra={
                    "error": f"{type(exc).__name__}: {exc}"[:300],
                    "down_s": round(down_s, 1),
                    "retry_in_s": round(delay, 2),
                },
            )
        stop.wait(delay)

    def succeeded(self, event: str) -> None:
        with self._lock:
            if self._failures == 0:
                return
            down_s = time.monotonic() - (self._since or time.monotonic())
            self._failures, self._since, self._logged_at = 0, None, 0.0
        logger.info(event, extra={"down_s": round(down_s, 1)})
