"""No secret in any log line: a full run (web, worker, a Redis outage) with a database
password, a Redis password, a session key and API tokens, then every log line searched."""

from __future__ import annotations

import secrets
import shutil
import signal
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from app.models import Role
from tests.app.conftest import read_exercise_file, wipe
from tests.app.live import LiveProcess, LiveServer, RedisServer, wait_all_done

pytestmark = pytest.mark.slow

SOLUTION = read_exercise_file("gru-update-gate", "solution.py")


def _with_password(database_url: str, password: str) -> str:
    """The test database's URL with a password (trust authentication ignores it)."""
    parts = urlsplit(database_url)
    return urlunsplit(
        parts._replace(netloc=f"{parts.username}:{password}@{parts.hostname}:{parts.port or 5432}")
    )


def test_a_full_run_logs_no_secret(database_url: str, tmp_path: Path) -> None:
    if not database_url.startswith("postgresql"):
        pytest.skip("a database password needs PostgreSQL")
    if not shutil.which("redis-server"):
        pytest.skip("REDIS IS NOT INSTALLED (no redis-server): the log secrets test did not run")
    redis_password, database_password = secrets.token_hex(12), secrets.token_hex(12)
    secret_key = secrets.token_hex(24)
    redis = RedisServer(tmp_path, password=redis_password)
    redis.start()
    server = LiveServer(
        tmp_path,
        _with_password(database_url, database_password),
        workers=0,
        queue_url=redis.url,
        extra_env={
            "NUMJUDGE_QUEUE_NAME": f"secrets-{uuid.uuid4().hex[:8]}",
            "NUMJUDGE_SECRET_KEY": secret_key,
            "NUMJUDGE_LOG_LEVEL": "DEBUG",
        },
    )
    worker = LiveProcess(["worker", "--workers", "2"], {**server.env}, tmp_path / "worker.log")
    tokens = []
    try:
        server.start()
        worker.start()
        learner = server.add_user("ada")
        prof = server.add_user("prof", Role.INSTRUCTOR)
        tokens = [learner["Authorization"].split()[1], prof["Authorization"].split()[1]]
        with server.client(prof) as client:
            first = client.post(
                "/submit", json={"exercise": "gru-update-gate", "code": SOLUTION}, headers=learner
            )
            assert wait_all_done(client, [first.json()["id"]])
            redis.stop()  # the outage's messages and tracebacks are searched too
            during = client.post(
                "/submit", json={"exercise": "gru-update-gate", "code": SOLUTION}, headers=learner
            )
            assert during.status_code == 202
            redis.start()
            assert wait_all_done(client, [during.json()["id"]], timeout=60)
    finally:
        worker.kill(signal.SIGTERM)
        server.kill(signal.SIGTERM)
        redis.stop()
        wipe(database_url)  # the session's database: later tests add the same names
    logs = server.log_text() + worker.log_text()
    assert "queue.unavailable" in logs or "submission.unsent" in logs  # the outage was logged
    assert "***@127.0.0.1" in logs  # the URLs were, masked
    for secret in (redis_password, database_password, secret_key, *tokens):
        assert secret not in logs
