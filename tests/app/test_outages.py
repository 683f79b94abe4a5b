"""Faults of the service's neighbours, on real processes: Redis stopped and a PostgreSQL
outage. Both use servers of their own (a redis-server on another port, a proxy in front of a
fresh database) so the shared ones are never touched."""

from __future__ import annotations

import re
import shutil
import signal
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest

from app.core.db import upgrade_database
from app.models import Role
from tests.app.conftest import read_exercise_file, wipe
from tests.app.live import CuttableProxy, LiveServer, RedisServer, wait_all_done

# Each test starts a live server, and one a Redis of its own, and cuts them off for seconds.
pytestmark = pytest.mark.slow

EXERCISE = "gru-update-gate"
SOLUTION = read_exercise_file(EXERCISE, "solution.py")
SLOW = "import time\ntime.sleep(0.5)\n" + SOLUTION


def _submit(client: httpx.Client, headers: dict[str, str], code: str = SOLUTION) -> str:
    response = client.post("/submit", json={"exercise": EXERCISE, "code": code}, headers=headers)
    assert response.status_code == 202, response.text
    return str(response.json()["id"])


def test_redis_stopped_submissions_are_accepted_and_graded_once_it_is_back(
    database_url: str, tmp_path: Path
) -> None:
    if not shutil.which("redis-server"):
        pytest.skip("REDIS IS NOT INSTALLED (no redis-server): the Redis outage test did not run")
    redis = RedisServer(tmp_path)
    redis.start()
    server = LiveServer(
        tmp_path,
        database_url,
        queue_url=redis.url,
        extra_env={"NUMJUDGE_QUEUE_NAME": f"outage-{uuid.uuid4().hex[:8]}"},
    )
    try:
        server.start()
        learners = [server.add_user(f"learner{i}") for i in range(3)]
        with server.client(server.add_user("prof", Role.INSTRUCTOR)) as client:
            assert wait_all_done(client, [_submit(client, learners[0])])  # the path works
            redis.stop()
            ids = [_submit(client, learners[i % 3]) for i in range(6)]  # 202, never 500
            health = client.get("/healthz")
            assert health.status_code == 503 and health.json()["queue"].startswith("error")
            redis.start()
            results = wait_all_done(client, ids, timeout=60)
            assert client.get("/healthz").status_code == 200
        assert sorted(results) == sorted(ids)
        assert {r["verdict"] for r in results.values()} == {"passed"}
        assert {r["attempts"] for r in results.values()} == {1}  # graded once each
        log = server.log_text()
        assert "submission.unsent" in log and "Traceback" not in log
        # Rate-limited: one warning per outage and thread group, not one per poll.
        assert len(re.findall(r"queue\.unavailable", log)) <= 3, log[-3000:]
    finally:
        server.kill(signal.SIGTERM)
        redis.stop()
        wipe(database_url)  # the session's database: later tests count its rows


def test_a_database_outage_is_waited_out_and_every_submission_is_graded(
    fresh_database_url: Callable[[str], str], tmp_path: Path
) -> None:
    real_url = fresh_database_url("postgresql")
    upgrade_database(real_url)
    address = urlsplit(real_url.replace("postgresql+psycopg", "postgresql"))
    proxy = CuttableProxy((address.hostname or "localhost", address.port or 5432))
    proxy.start()
    proxied_url = real_url.replace(f"{address.hostname}:{address.port}", f"127.0.0.1:{proxy.port}")
    server = LiveServer(tmp_path, proxied_url)  # the default back-off cap
    outage_s = 5.0
    try:
        server.start()
        learners = [server.add_user(f"learner{i}") for i in range(3)]
        with server.client(server.add_user("prof", Role.INSTRUCTOR)) as client:
            ids = [_submit(client, learners[i % 3], SLOW) for i in range(6)]
            proxy.cut()  # gradings in flight, rows queued
            cut_at = time.monotonic()
            while time.monotonic() - cut_at < outage_s:
                assert client.get("/healthz").status_code == 503
                time.sleep(0.5)
            proxy.restore()
            # The bound: everything graded within the outage plus 10 s.
            results = wait_all_done(client, ids, timeout=10)
        assert sorted(results) == sorted(ids), server.log_text()[-3000:]
        assert {r["verdict"] for r in results.values()} == {"passed"}
        log = server.log_text()
        assert "database.unavailable" in log and "database.available" in log
        assert len(re.findall(r"database\.unavailable", log)) <= 3, log[-3000:]
    finally:
        server.kill(signal.SIGTERM)
        proxy.cut()
