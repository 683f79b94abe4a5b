"""Slows down password guessing: too many failed sign-ins for one name from one address."""

from __future__ import annotations

import threading
import time
from collections import deque

MAX_FAILURES = 10
WINDOW_S = 300.0


class LoginThrottle:
    """Failed sign-ins per (address, username) in a sliding window, in this process's memory."""

    def __init__(self, max_failures: int = MAX_FAILURES, window_s: float = WINDOW_S) -> None:
        self.max_failures = max_failures
        self.window_s = window_s
        self._failures: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def _recent(self, key: str, now: float) -> deque[float]:
        failures = self._failures.setdefault(key, deque())
        while failures and failures[0] <= now - self.window_s:
            failures.popleft()
        return failures

    def wait_s(self, key: str) -> float:
        """Seconds until ``key`` may try again (0: now)."""
        now = time.monotonic()
        with self._lock:
            failures = self._recent(key, now)
            if len(failures) < self.max_failures:
                return 0.0
            return failures[0] + self.window_s - now

    def failed(self, key: str) -> None:
        now = time.monotonic()
        with self._lock:
            self._recent(key, now).append(now)
            if len(self._failures) > 10_000:  # forget idle keys; never grow without bound
                for stale in [k for k, v in self._failures.items() if not v]:
                    del self._failures[stale]

    def reset(self) -> None:
        with self._lock:
            self._failures.clear()

    def succeeded(self, key: str) -> None:
        with self._lock:
            self._failures.pop(key, None)


login_throttle = LoginThrottle()


def throttle_key(address: str | None, username: str) -> str:
    return f"{address or '?'}|{username.strip().lower()}"
