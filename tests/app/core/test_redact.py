"""app/core/redact.py: no password, key or token reaches a log line."""

from __future__ import annotations

import io
import logging

import pytest
from pydantic import SecretStr

from app.core.config import Settings
from app.core.logging import configure_logging
from app.core.redact import Redactor, mask_url, url_secrets


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("redis://:s3cret@queue:6379/0", "redis://:***@queue:6379/0"),
        ("postgresql+psycopg://nj:pa%40ss@db:5432/nj", "postgresql+psycopg://nj:***@db:5432/nj"),
        ("rediss://user:p@ss@queue/1", "rediss://user:***@queue/1"),
        ("redis://queue:6379/0", "redis://queue:6379/0"),
        ("redis://user@queue/0", "redis://user@queue/0"),
        ("sqlite:///./numjudge.db", "sqlite:///./numjudge.db"),
    ],
)
def test_mask_url_hides_only_the_password(url: str, shown: str) -> None:
    assert mask_url(url) == shown


def test_url_secrets_are_the_password_as_written_and_decoded() -> None:
    assert url_secrets("postgresql://u:pa%40ss@db/x") == ["pa%40ss", "pa@ss"]
    assert url_secrets("redis://:tok@q/0") == ["tok"]
    assert url_secrets("redis://q/0") == [] and url_secrets("redis://u@q/0") == []


def test_the_longest_secret_is_masked_whole() -> None:
    assert Redactor(["abc", "abcdef", ""])("x abcdef y abc") == "x *** y ***"


def test_settings_name_every_secret_they_hold() -> None:
    settings = Settings(
        database_url="postgresql+psycopg://nj:dbpass@db/nj",
        queue_url="redis://:qpass@q:6379/0",
        secret_key=SecretStr("k" * 40),
    )
    assert settings.secrets == ["dbpass", "qpass", "k" * 40]


def test_configured_logging_masks_secrets_anywhere_in_a_line() -> None:
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    configure_logging("INFO", "text", ["qpass"])
    handler = root.handlers[0]
    assert isinstance(handler, logging.StreamHandler)
    stream = io.StringIO()
    handler.setStream(stream)
    try:
        raise ConnectionError("cannot reach redis://:qpass@q:6379/0")
    except ConnectionError:
        logging.getLogger("tests").exception("queue.down", extra={"url": "redis://:qpass@q"})
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)
    assert "qpass" not in stream.getvalue() and stream.getvalue().count("***") == 3
