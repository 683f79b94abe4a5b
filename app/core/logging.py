"""Logging configuration: one structured line per event (``text``: logfmt-like; ``json``)."""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from app.core.redact import Redactor

_RESERVED = set(logging.LogRecord("", 0, "", 0, "", (), None).__dict__) | {
    "message",
    "asctime",
    "color_message",
    "taskName",
}


def event_fields(record: logging.LogRecord) -> dict[str, Any]:
    return {k: v for k, v in record.__dict__.items() if k not in _RESERVED}


class TextFormatter(logging.Formatter):
    """``2026-01-01T00:00:00Z INFO app.x submission.done id=… verdict=passed``."""

    def format(self, record: logging.LogRecord) -> str:
        stamp = datetime.fromtimestamp(record.created, UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3]
        fields = " ".join(f"{k}={_text(v)}" for k, v in event_fields(record).items())
        line = f"{stamp}Z {record.levelname} {record.name} {record.getMessage()}"
        if fields:
            line += " " + fields
        if record.exc_info:
            line += "\n" + self.formatException(record.exc_info)
        return line


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        data: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(),
            "level": record.levelname,
            "logger": record.name,
            "event": record.getMessage(),
            **event_fields(record),
        }
        if record.exc_info:
            data["exc"] = self.formatException(record.exc_info)
        return json.dumps(data, default=str)


def _text(value: object) -> str:
    text = str(value)
    return json.dumps(text) if (" " in text or not text or '"' in text) else text


class RedactingFormatter(logging.Formatter):
    """Another formatter's lines with every configured secret masked (``app.core.redact``)."""

    def __init__(self, inner: logging.Formatter, redactor: Redactor) -> None:
        super().__init__()
        self.inner = inner
        self.redactor = redactor

    def format(self, record: logging.LogRecord) -> str:
        return self.redactor(self.inner.format(record))


def configure_logging(level: str = "INFO", fmt: str = "text", secrets: Iterable[str] = ()) -> None:
    """Send every log line to stderr in the chosen format, none of ``secrets`` in it (called
    once per process)."""
    handler = logging.StreamHandler(sys.stderr)
    inner = JsonFormatter() if fmt == "json" else TextFormatter()
    handler.setFormatter(RedactingFormatter(inner, Redactor(secrets)))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())
    for noisy in ("huey", "huey.consumer", "uvicorn.access", "alembic"):
        logging.getLogger(noisy).setLevel(max(logging.WARNING, root.level))
