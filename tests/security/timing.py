"""The whole-submission time channel (issue 22): code that waits during its first hidden call
for a time chosen by the hidden input, and what a learner reads of that time.

The attack of the issue sleeps 18 ms times one byte of a hidden input and decodes the byte from
``finished_at - started_at - duration_ms`` or from when the result appears. ``attack_code``
is that submission; ``waiting_code`` the deterministic model of it: a correct submission whose
grading takes a time the test chooses.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
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
