"""The multi-machine shape on one machine: ``serve`` without graders + ``worker``, over Redis."""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import time
import uuid
from pathlib import Path

import pytest

from app.grading.queue import GradingQueue
from tests.app.conftest import read_exercise_file, wipe
from tests.app.live import LiveProcess, LiveServer

pytestmark = pytest.mark.slow

REDIS_URL = "redis://127.0.0.1:6379/15"
QUEUE_NAME = f"numjudge-test-{uuid.uuid4().hex[:8]}"  # never another run's or deployment's


def ensure_redis() -> None:
    def up() -> bool:
        try:
            with socket.create_connection(("127.0.0.1", 6379), timeout=1):
                return True
        except OSError:
            return False

    if up():
        return
    if not shutil.which("redis-server"):
        pytest.skip("REDIS IS NOT INSTALLED (no redis-server): the Redis queue test did not run")
    subprocess.run(
        [
            "redis-server",
            "--daemonize",
            "yes",
            "--bind",
            "127.0.0.1",
            "--port",
            "6379",
            "--save",
            "",
            "--appendonly",
            "no",
        ],
        check=True,
        timeout=30,
    )
    deadline = time.monotonic() + 10
    while not up():
        if time.monotonic() > deadline:
            pytest.fail("redis-server did not start")
        time.sleep(0.1)


def test_serve_and_worker_share_a_redis_queue(database_url: str, tmp_path: Path) -> None:
    ensure_redis()
    queue = REDIS_URL
    server = LiveServer(
        tmp_path,
        database_url,
        workers=0,
        queue_url=queue,
        extra_env={"NUMJUDGE_QUEUE_NAME": QUEUE_NAME},
    )
    worker = LiveProcess(["worker", "--workers", "2"], {**server.env}, tmp_path / "worker.log")
    try:
        server.start()
        with server.client(server.add_user("ada")) as client:
            response = client.post(
                "/submit",
                params={"wait": 1},
                json={
                    "exercise": "gru-update-gate",
                    "code": read_exercise_file("gru-update-gate", "solution.py"),
                },
            )
            assert response.json()["status"] == "queued"  # nobody grades yet
            worker.start()
            result = client.get(response.json()["url"])
            deadline = time.monotonic() + 60
            while result.json()["status"] != "done" and time.monotonic() < deadline:
                time.sleep(0.2)
                result = client.get(response.json()["url"])
            assert result.json()["verdict"] == "passed", worker.log_text()[-2000:]
            waited = client.post(
                "/submit",
                params={"wait": 30},
                json={
                    "exercise": "gru-update-gate",
                    "code": read_exercise_file("gru-update-gate", "starter.py"),
                },
            ).json()
            assert waited["status"] == "done" and waited["verdict"] in ("failed", "error")
        assert "submission.done" in worker.log_text()
        assert "submission.done" not in server.log_text()
    finally:
        worker.kill(signal.SIGTERM)
        server.kill(signal.SIGTERM)
        GradingQueue(queue, QUEUE_NAME).huey.flush()  # only this test's queue
        wipe(database_url)
