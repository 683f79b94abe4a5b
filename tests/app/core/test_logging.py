"""Log lines: one structured line per event, in text or JSON."""

from __future__ import annotations

import json
import logging

from app.core.logging import JsonFormatter, TextFormatter


def _record() -> logging.LogRecord:
    record = logging.LogRecord(
        "app.grading.lifecycle", logging.INFO, __file__, 1, "submission.done", (), None
    )
    record.__dict__.update({"submission_id": "abc", "verdict": "passed", "note": "two words"})
    return record


def test_text_lines_carry_the_event_fields() -> None:
    line = TextFormatter().format(_record())
    assert line.endswith(
        "INFO app.grading.lifecycle submission.done submission_id=abc "
        'verdict=passed note="two words"'
    )
    assert "\n" not in line


def test_json_lines_carry_the_event_fields() -> None:
    data = json.loads(JsonFormatter().format(_record()))
    assert data["event"] == "submission.done" and data["level"] == "INFO"
    assert data["submission_id"] == "abc" and data["verdict"] == "passed"
