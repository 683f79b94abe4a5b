"""app/core/backoff.py: one warning per outage, however long it lasts."""

from __future__ import annotations

import logging
import threading

import pytest

from app.core.backoff import Backoff


def test_an_outage_warns_once_and_reminds_as_information(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="app.core.backoff")
    outage = Backoff(first_s=0.0, max_s=0.0, log_every_s=0.0)
    stop = threading.Event()
    for _ in range(3):
        outage.failed(stop, "queue.unavailable", ConnectionError("refused"))
    outage.succeeded("queue.available")
    outage.failed(stop, "queue.unavailable", ConnectionError("refused"))  # the next outage
    levels = [(r.getMessage(), r.levelname) for r in caplog.records]
    assert levels == [
        ("queue.unavailable", "WARNING"),
        ("queue.unavailable", "INFO"),
        ("queue.unavailable", "INFO"),
        ("queue.available", "INFO"),
        ("queue.unavailable", "WARNING"),
    ]
