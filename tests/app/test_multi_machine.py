"""The multi-machine shape on one machine: ``serve`` without graders + ``worker``, over Redis;
a worker killed for good, whose rows the other takes back through the heartbeats."""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import time
import uuid
from pathlib import Path

import pytest
from sqlalchemy import select

from app.core.db import session_scope
from app.models import Role, Submission, SubmissionStatus, Worker
from app.runtime.queue import GradingQueue
from tests.app.conftest import read_exercise_file, wipe
from tests.app.live import LiveProcess, LiveServer, RedisServer, wait_all_done

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


def test_a_killed_workers_rows_are_taken_back_by_another_through_the_heartbeats(
    database_url: str, tmp_path: Path
) -> None:
    """worker1 is killed with SIGKILL and never restarted while it grades. The processes left
    (started before: their start-up pass, which puts back a dead local worker's rows, ran
    already) take the rows back because worker1's heartbeat stopped, long before their lease
    (the time limit plus 30 s) ends, as the reason logged says; worker2 grades them, and
    worker1's record is gone from the workers."""
    if not shutil.which("redis-server"):
        pytest.skip("REDIS IS NOT INSTALLED (no redis-server): the dead worker test did not run")
    redis = RedisServer(tmp_path)
    redis.start()
    server = LiveServer(
        tmp_path,
        database_url,
        workers=0,
        queue_url=redis.url,
        extra_env={
            "NUMJUDGE_QUEUE_NAME": f"dead-worker-{uuid.uuid4().hex[:8]}",
            "NUMJUDGE_HEARTBEAT_INTERVAL_S": "1",
            "NUMJUDGE_WORKER_SILENCE_S": "3",
        },
    )
    workers = [
        LiveProcess(["worker", "--workers", "2"], {**server.env}, tmp_path / f"worker{i}.log")
        for i in (1, 2)
    ]
    slow = "import time\ntime.sleep(1.0)\n" + read_exercise_file("gru-update-gate", "solution.py")
    try:
        server.start()
        for worker in workers:
            worker.start()
        for worker in workers:  # their start-up passes ran: what follows is the heartbeats'
            worker.wait_for_log("worker.started")
        learners = [server.add_user(f"learner{i}") for i in range(4)]
        with server.client(server.add_user("prof", Role.INSTRUCTOR)) as client:
            ids = [
                client.post(
                    "/submit",
                    json={"exercise": "gru-update-gate", "code": slow},
                    headers=learners[i % 4],
                ).json()["id"]
                for i in range(12)
            ]
            process = workers[0].process
            assert process is not None
            killed = f"{socket.gethostname()}:{process.pid}"
            grading = _freeze_while_grading(server.database_url, process, killed)
            workers[0].kill(signal.SIGKILL)
            results = wait_all_done(client, ids, timeout=120)
        assert sorted(results) == sorted(ids), workers[1].log_text()[-3000:]
        assert {r["verdict"] for r in results.values()} == {"passed"}
        # A store already on its way when worker1 froze may have finished a row; the others
        # were begun by worker1 and graded again by worker2.
        with session_scope(server.database_url) as session:
            finished_by = {
                row.id: row.worker
                for row in session.execute(
                    select(Submission.id, Submission.worker).where(Submission.id.in_(grading))
                )
            }
        taken = [i for i in grading if finished_by[i] != killed]
        assert taken and all(results[i]["attempts"] >= 2 for i in taken), grading
        survivors = server.log_text() + workers[1].log_text()  # either's recovery may do it
        assert any(
            "submission.requeued" in line and taken[0] in line and "reason=worker_silent" in line
            for line in survivors.splitlines()
        ), survivors[-3000:]
        with session_scope(server.database_url) as session:
            assert killed not in session.scalars(select(Worker.id)).all()
    finally:
        for worker in workers:
            worker.kill(signal.SIGTERM)
        server.kill(signal.SIGTERM)
        redis.stop()
        wipe(database_url)


def _freeze_while_grading(
    database_url: str, process: subprocess.Popen[bytes], worker: str
) -> list[str]:
    """Freeze ``process`` (``worker``) with SIGSTOP once it grades rows, so it can finish none
    of them now; return their ids."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        process.send_signal(signal.SIGSTOP)
        with session_scope(database_url) as session:
            running = list(
                session.scalars(
                    select(Submission.id).where(
                        Submission.status == SubmissionStatus.RUNNING, Submission.worker == worker
                    )
                )
            )
        if running:
            return running
        process.send_signal(signal.SIGCONT)
        time.sleep(0.05)
    pytest.fail(f"{worker} graded nothing in 60 s")
