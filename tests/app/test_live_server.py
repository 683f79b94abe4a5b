"""A real ``numjudge serve`` process: verdicts over HTTP, load, crash recovery, the CLI."""

from __future__ import annotations

import concurrent.futures
import contextlib
import os
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from sqlalchemy import make_url, select

from app.core.db import session_scope, upgrade_database
from app.models import Role, Submission, SubmissionStatus
from graders.exercises import ExerciseCatalog
from tests.app.conftest import EXERCISES, read_exercise_file
from tests.app.live import LiveServer, wait_all_done

pytestmark = pytest.mark.slow

EXERCISE = "gru-update-gate"
SLOW_REFERENCE = "import time\ntime.sleep(0.4)\n" + read_exercise_file(EXERCISE, "solution.py")


@contextlib.contextmanager
def started_server(database_url: str, folder: Path) -> Iterator[LiveServer]:
    from tests.app.conftest import wipe

    # Its own folder of core claims: in the host's, the other numjudge processes (another
    # copy of the suite, a deployment) would decide which core it gets, or leave it none.
    live = LiveServer(folder, database_url, extra_env={"NUMJUDGE_CORES_DIR": str(folder / "cores")})
    live.start()
    try:
        yield live
    finally:
        live.kill(signal.SIGTERM)
        wipe(database_url)


@pytest.fixture(scope="module")
def server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One server for the tests that leave it running and whose learners are their own (a
    server's start builds its root image and zygotes and prepares every exercise: seconds)."""
    with started_server(database_url, tmp_path_factory.mktemp("live")) as live:
        yield live


@pytest.fixture
def own_server(
    database_url: str, fresh_database_url: Callable[[str], str], tmp_path: Path
) -> Iterator[LiveServer]:
    """A server of the test's own, which it may kill, on a database of the same kind of its
    own: the shared server, still running, would grade its submissions."""
    url = fresh_database_url(make_url(database_url).get_backend_name())
    upgrade_database(url)
    with started_server(url, tmp_path) as live:
        yield live


def submit_wait(client: httpx.Client, code: str) -> dict:  # type: ignore[type-arg]
    response = client.post(
        "/submit", params={"wait": 30}, json={"exercise": EXERCISE, "code": code}
    )
    assert response.status_code == 202, response.text
    data = response.json()
    assert data["status"] == "done", data
    return data  # type: ignore[no-any-return]


def test_a_client_sending_a_too_large_body_reads_the_413(server: LiveServer) -> None:
    with server.client(server.add_user("bea")) as client:
        for _ in range(3):  # a reset would show on some attempts, not all
            response = client.post(
                "/submit", content=b"x" * (2 << 20), headers={"content-type": "application/json"}
            )
            assert response.status_code == 413
            assert "a submission's code may hold 100000 bytes" in response.json()["detail"]


def test_reference_starter_and_every_mistake_over_http(server: LiveServer) -> None:
    exercise = ExerciseCatalog(EXERCISES).load(EXERCISE)
    assert exercise.mistakes, "gru-update-gate should ship known mistakes"
    with server.client(server.add_user("ada")) as client:
        reference = submit_wait(client, read_exercise_file(EXERCISE, "solution.py"))
        assert reference["verdict"] == "passed"
        assert reference["score"] == reference["max_score"] > 0
        starter = submit_wait(client, read_exercise_file(EXERCISE, "starter.py"))
        assert starter["verdict"] in ("failed", "error")
        assert starter["score"] < starter["max_score"]
        for mistake in exercise.mistakes:
            result = submit_wait(client, mistake.path.read_text())
            assert result["verdict"] == "failed", mistake.name
            assert result["score"] < result["max_score"], mistake.name
            assert result["diagnosis"]["hint"] == mistake.hint, (mistake.name, result)
            hidden_failed = [
                t
                for t in result["tests"]
                if t["visibility"] == "hidden" and t["status"] == "failed"
            ]
            assert hidden_failed, mistake.name


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs at least two CPUs")
def test_the_server_threads_share_one_core_and_its_sandboxes_get_every_core(
    server: LiveServer,
) -> None:
    assert server.process is not None
    pid = server.process.pid
    every = os.sched_getaffinity(0)
    threads = [int(task) for task in os.listdir(f"/proc/{pid}/task")]
    cores = {frozenset(os.sched_getaffinity(tid)) for tid in threads}
    # One core for all: the highest-numbered, as no other process claimed it in its folder.
    assert cores == {frozenset({max(every)})}
    zygotes = [
        int(child)
        for tid in threads
        for child in Path(f"/proc/{pid}/task/{tid}/children").read_text().split()
    ]
    assert len(zygotes) == 3  # two grading threads and one for regrades
    assert all(os.sched_getaffinity(zygote) == every for zygote in zygotes)
    with server.client(server.add_user("cy")) as client:
        assert (
            submit_wait(client, read_exercise_file(EXERCISE, "solution.py"))["verdict"] == "passed"
        )


def test_fifty_concurrent_submissions_all_finish_right(server: LiveServer) -> None:
    codes = {
        "passed": read_exercise_file(EXERCISE, "solution.py"),
        "failed": read_exercise_file(EXERCISE, "mistakes/one_minus_z.py"),
    }
    # Ten learners, five each: within the default per-learner waiting limit.
    learners = [server.add_user(f"learner{i}") for i in range(10)]
    plan = [("passed" if i % 2 else "failed", learners[i % 10]) for i in range(50)]
    with server.client(server.add_user("prof", Role.INSTRUCTOR)) as client:

        def post(item: tuple[str, dict[str, str]]) -> tuple[str, dict]:  # type: ignore[type-arg]
            expected, headers = item
            response = client.post(
                "/submit",
                params={"wait": 30},
                headers=headers,
                json={"exercise": EXERCISE, "code": codes[expected]},
            )
            assert response.status_code == 202
            return expected, response.json()

        with concurrent.futures.ThreadPoolExecutor(max_workers=50) as pool:
            answers = list(pool.map(post, plan))
        ids = [data["id"] for _, data in answers]
        results = wait_all_done(client, ids)  # an instructor reads every learner's
    assert len(results) == 50
    for expected, data in answers:
        assert results[data["id"]]["verdict"] == expected
    assert len(set(ids)) == 50


def test_killed_server_finishes_every_submission_after_restart(own_server: LiveServer) -> None:
    server = own_server
    with server.client(server.add_user("ada")) as client:
        ids = [
            client.post("/submit", json={"exercise": EXERCISE, "code": SLOW_REFERENCE}).json()["id"]
            for _ in range(8)
        ]
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            statuses = _statuses(server, ids)
            if SubmissionStatus.RUNNING in statuses.values():
                break
            time.sleep(0.05)
        server.kill(signal.SIGKILL)
        statuses = _statuses(server, ids)
        assert SubmissionStatus.RUNNING in statuses.values(), statuses
        assert SubmissionStatus.QUEUED in statuses.values(), statuses
        server.start()
        results = wait_all_done(client, ids, timeout=60)
    assert len(results) == len(ids), _statuses(server, ids)
    assert {r["verdict"] for r in results.values()} == {"passed"}
    assert max(r["attempts"] for r in results.values()) >= 2  # one was graded again
    log = server.log_text()
    assert "submission.requeued" in log and "reason=startup" in log
    assert "time.sleep" not in log and "def update_gate" not in log  # code is never logged


def _statuses(server: LiveServer, ids: list[str]) -> dict[str, SubmissionStatus]:
    with session_scope(server.database_url) as session:
        rows = session.scalars(select(Submission).where(Submission.id.in_(ids))).all()
        return {row.id: row.status for row in rows}
