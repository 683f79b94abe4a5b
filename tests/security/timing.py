"""The whole-submission time channel (issue 22): code that waits during its first hidden call
for a time chosen by the hidden input, and what a learner reads of that time.

The attack of the issue sleeps 18 ms times one byte of a hidden input and decodes the byte from
``finished_at - started_at - duration_ms`` or from when the result appears. ``attack_code``
is that submission; ``waiting_code`` the deterministic model of it: a correct submission whose
grading takes a time the test chooses. ``regrade_and_watch`` reads the same time off
regrades: the moments regraded results appear.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

from tests.security.vault import EXERCISE

STEP_S = 0.018
"""The attack's wait per value of the byte."""

_WAIT_IN_FIRST_HIDDEN_CALL = """
import time

import numpy as np

_waited = []


def gate(x, w):
    first = abs(float(np.ravel(x)[0]))
    # Hidden inputs have digits 5-9 only, the public ones 1-4 (tests/security/vault.py).
    if first >= 0.5 and not _waited:
        _waited.append(True)
        time.sleep({seconds})
    return np.tanh(x * w)
"""


def waiting_code(seconds: float) -> str:
    """A correct submission that waits ``seconds`` in its first hidden call."""
    return _WAIT_IN_FIRST_HIDDEN_CALL.format(seconds=repr(seconds))


def attack_code(byte_index: int) -> str:
    """The issue's attack: a correct submission that waits 18 ms times byte ``byte_index`` of
    the first hidden input's ten digits (read as an integer)."""
    return _WAIT_IN_FIRST_HIDDEN_CALL.format(
        seconds=f"{STEP_S} * ((int(round(first * 10**10)) >> (8 * {byte_index})) & 255)"
    )


def hidden_byte(first: float, byte_index: int) -> int:
    """The byte ``attack_code(byte_index)`` sends, of the first hidden input ``first``."""
    return (round(abs(first) * 10**10) >> (8 * byte_index)) & 255


@dataclass(frozen=True)
class Seen:
    """What a learner reads of one submission's time."""

    answer: dict[str, Any]
    sent: datetime
    answered: datetime

    def _moment(self, key: str) -> datetime:
        return datetime.fromisoformat(self.answer[key])

    @property
    def created(self) -> datetime:
        return self._moment("created_at")

    @property
    def span(self) -> timedelta:
        """``finished_at - started_at`` as shown."""
        return self._moment("finished_at") - self._moment("started_at")

    @property
    def residue_ms(self) -> float:
        """The issue's decoder: ``finished_at - started_at - duration_ms``."""
        return self.span / timedelta(milliseconds=1) - float(self.answer["duration_ms"])

    @property
    def appeared_after(self) -> timedelta:
        """When the answer to ``?wait=`` came, from the submission's acceptance."""
        return self.answered - self.created

    @property
    def release(self) -> datetime:
        """The moment the result was released, as shown."""
        return self._moment("finished_at")

    def observation(self) -> float:
        """What of the answer's times can depend on a hidden input: the span, in ms (its
        ``duration_ms`` is the report's, which stops before the first hidden case)."""
        return self.span / timedelta(milliseconds=1)


def submit_and_wait(client: httpx.Client, code: str) -> Seen:
    """Submit, hold the answer until the result is final, and note when it came."""
    sent = datetime.now(UTC)
    answer = client.post("/submit", params={"wait": 30}, json={"exercise": EXERCISE, "code": code})
    answered = datetime.now(UTC)
    assert answer.status_code == 202, answer.text
    body = answer.json()
    while body["status"] != "done":  # a ?wait= that ended first: poll as a client would
        time.sleep(0.05)
        body = client.get(body["url"]).json()
        answered = datetime.now(UTC)
    return Seen(body, sent, answered)


@dataclass(frozen=True)
class Regraded:
    """What a learner polling their history reads of their submissions' regrade: when each
    one's new result appeared, in the order they were regraded, and every status shown."""

    appeared: list[datetime]
    statuses: frozenset[str]

    @property
    def gaps(self) -> list[timedelta]:
        """From one regraded result appearing to the next."""
        return [later - earlier for earlier, later in itertools.pairwise(self.appeared)]


def regrade_and_watch(
    learner: httpx.Client, instructor: httpx.Client, catalog: Path, ids: list[str]
) -> Regraded:
    """Edit the exercise, regrade its submissions ``ids`` (regraded oldest first: the fair
    order of one learner's rows) and poll the learner's history until each is done again."""
    statement = catalog / EXERCISE / "statement.md"
    statement.write_text(statement.read_text(encoding="utf-8") + "\nEdited.\n", encoding="utf-8")
    queued = instructor.post(f"/regrades/{EXERCISE}")
    assert queued.json() == {"exercise": EXERCISE, "queued": len(ids)}, queued.text
    appeared: dict[str, datetime] = {}
    statuses: set[str] = set()
    # A regrade runs at the lowest CPU priority: a busy host can hold each one for seconds.
    deadline = time.monotonic() + 30 * len(ids) + 60
    while len(appeared) < len(ids) and time.monotonic() < deadline:
        rows = learner.get("/submissions", params={"exercise": EXERCISE}).json()
        now = datetime.now(UTC)
        for row in rows:
            statuses.add(row["status"])
            if row["status"] == "done" and row["id"] in ids:
                appeared.setdefault(row["id"], now)
        time.sleep(0.005)
    assert len(appeared) == len(ids), f"{len(ids) - len(appeared)} of {len(ids)} not regraded"
    return Regraded([appeared[i] for i in ids], frozenset(statuses))
