"""docs/deploy.md's deployment as three machines on this kernel (tests/app/cluster.py): web1
(``numjudge serve --workers 0``), worker1 and worker2, with PostgreSQL and Redis (passwords)
on a data machine, over a bridge. A batch of right and wrong submissions from several
learners; worker2 starts beside a working worker1 and leaves its sandbox cgroups alone;
worker1 is killed mid-batch and never comes back; Redis stops while learners still
submit and starts again. Every verdict is the one expected, worker1's gradings were taken
back through its silent heartbeat, its record is gone, and no log line holds a secret."""

from __future__ import annotations

import secrets
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from sqlalchemy import select

from app.core.db import dispose_engines, session_scope, upgrade_database
from app.models import Role, Submission, SubmissionStatus, Worker
from app.store import accounts as account_store
from graders.sandbox import state
from tests.app.cluster import Cluster, Machine, parent_cgroup, stop, unmet
from tests.app.conftest import read_exercise_file
from tests.app.live import NUMJUDGE, REPO, service_env, wait_all_done

pytestmark = pytest.mark.slow

EXERCISE = "gru-update-gate"
# The reference, slowed so the batch is still running when worker1 is killed.
RIGHT = "import time\ntime.sleep(0.3)\n" + read_exercise_file(EXERCISE, "solution.py")
WRONG = read_exercise_file(EXERCISE, "mistakes/one_minus_z.py")
PORT = 8000


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    reason = unmet()
    if reason:
        pytest.skip(reason)
    cluster = Cluster(tmp_path)
    try:
        for name in ("data", "web1", "worker1", "worker2"):
            cluster.add(name)
        cluster.start_postgres()
        cluster.start_redis()
        yield cluster
    finally:
        dispose_engines()
        cluster.close()


def _add_learner(database_url: str, name: str, role: Role = Role.LEARNER) -> dict[str, str]:
    with session_scope(database_url) as session:
        user = account_store.create_user(session=session, name=name, role=role)
        _, token = account_store.create_token(session=session, user=user)
    return {"Authorization": f"Bearer {token}"}


def _submit(client: httpx.Client, learner: dict[str, str], code: str) -> str:
    response = client.post("/submit", json={"exercise": EXERCISE, "code": code}, headers=learner)
    assert response.status_code == 202, response.text  # also while Redis is down
    return str(response.json()["id"])


def _wait(condition: Callable[[], bool], what: str, timeout: float = 180) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"{what}: not within {timeout:.0f} s")
        time.sleep(0.1)


def _rows(database_url: str, ids: list[str]) -> dict[str, Submission]:
    with session_scope(database_url) as session:
        rows = session.scalars(select(Submission).where(Submission.id.in_(ids))).all()
        session.expunge_all()
        return {row.id: row for row in rows}


def _on(machine: Machine, worker: str | None) -> bool:
    """Whether ``worker`` (a row's or a heartbeat's ``host:pid``) runs on ``machine``."""
    return (worker or "").startswith(f"{machine.hostname}:")


def _canary_passed(database_url: str, machine: Machine) -> bool:
    with session_scope(database_url) as session:
        return any(
            worker.canary_ok and _on(machine, worker.id)
            for worker in session.scalars(select(Worker))
        )


def _other_machines_cgroups() -> set[str]:
    """The sandbox cgroups of other machines than this test's, under the parent cgroup this
    test shares with its machines."""
    return {
        folder.name
        for folder in parent_cgroup().glob(f"{state.STATE_PREFIX}*")
        if not folder.name.startswith(state.own_prefix())
    }


def _healthy(url: str) -> bool:
    try:
        return httpx.get(f"{url}/healthz", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def test_three_machines_grade_every_submission_through_a_dead_worker_and_an_outage(
    cluster: Cluster,
) -> None:
    database = cluster.database_url
    upgrade_database(database)
    secret_key = secrets.token_hex(24)
    env = service_env(
        {
            "NUMJUDGE_DATABASE_URL": database,
            "NUMJUDGE_QUEUE_URL": cluster.redis_url,
            "NUMJUDGE_EXERCISES_DIR": str(REPO / "exercises"),
            "NUMJUDGE_SECRET_KEY": secret_key,
            "NUMJUDGE_AUTO_MIGRATE": "false",
            "NUMJUDGE_SERVICE_CPUS": "0",
            "NUMJUDGE_RECOVERY_INTERVAL_S": "1",
            "NUMJUDGE_PREPARE_AT_START": "false",  # each machine's cache starts empty: 40 s
            "NUMJUDGE_HEARTBEAT_INTERVAL_S": "1",
            "NUMJUDGE_WORKER_SILENCE_S": "3",
        }
    )
    web, worker1, worker2 = (cluster.machines[name] for name in ("web1", "worker1", "worker2"))
    logs = cluster.folder
    web.start(
        [NUMJUDGE, "serve", "--workers", "0", "--host", web.address, "--port", str(PORT)],
        env,
        logs / "web1.log",
    )
    killed = worker1.start([NUMJUDGE, "worker", "--workers", "2"], env, logs / "worker1.log")
    _wait(lambda: _canary_passed(database, worker1), "worker1's canary grading")
    # worker2 starts beside a working worker1, under the same parent cgroup, from a /tmp where
    # worker1's state folders are not: it must leave worker1's sandbox cgroups alone.
    theirs = _other_machines_cgroups()
    assert theirs, "worker1 made no sandbox cgroup under the parent it shares with worker2"
    worker2.start([NUMJUDGE, "worker", "--workers", "2"], env, logs / "worker2.log")
    _wait(lambda: _canary_passed(database, worker2), "worker2's canary grading")
    assert theirs <= _other_machines_cgroups()
    url = f"http://{web.address}:{PORT}"
    _wait(lambda: _healthy(url), "web1 healthy with a worker's passing canary")

    learners = [_add_learner(database, f"learner{i}") for i in range(8)]
    expected: dict[str, str] = {}
    with httpx.Client(
        base_url=url, headers=_add_learner(database, "prof", Role.INSTRUCTOR), timeout=60
    ) as client:
        for round_ in range(4):
            for index, learner in enumerate(learners):
                right = (index + round_) % 2 == 0
                expected[_submit(client, learner, RIGHT if right else WRONG)] = (
                    "passed" if right else "failed"
                )
        batch = list(expected)

        grading: list[str] = []

        def worker1_frozen_while_grading() -> bool:
            """Freeze worker1 (it can finish nothing now) and note the rows it holds; thawed
            again if it holds none."""
            killed.send_signal(signal.SIGSTOP)
            grading[:] = [
                row.id
                for row in _rows(database, batch).values()
                if row.status is SubmissionStatus.RUNNING and _on(worker1, row.worker)
            ]
            if not grading:
                killed.send_signal(signal.SIGCONT)
            return bool(grading)

        _wait(worker1_frozen_while_grading, "worker1 grading a row of the batch")
        stop(killed, signal.SIGKILL)

        cluster.stop_redis()
        for learner in learners[:4]:
            expected[_submit(client, learner, RIGHT)] = "passed"
        assert client.get("/healthz").status_code == 503  # the queue is down, and says so
        cluster.start_redis()

        ids = list(expected)
        results = wait_all_done(client, ids, timeout=180)  # as learners see them: released
    assert sorted(results) == sorted(ids), "not every submission was graded"
    assert {i: r["verdict"] for i, r in results.items()} == expected
    rows = _rows(database, ids)
    # A store already on its way when worker1 froze may have finished a row; the others were
    # begun on worker1 and graded again elsewhere.
    taken = [i for i in grading if not _on(worker1, rows[i].worker)]
    assert taken and all(rows[i].attempts >= 2 for i in taken), grading
    with session_scope(database) as session:
        workers = session.scalars(select(Worker.id)).all()
    assert not [w for w in workers if _on(worker1, w)], workers
    text = {
        name: (logs / f"{name}.log").read_text(errors="replace")
        for name in ("web1", "worker1", "worker2")
    }
    survivors = text["web1"] + text["worker2"]  # either's recovery may take them back
    assert any(
        "reason=worker_silent" in line and taken[0] in line for line in survivors.splitlines()
    ), survivors[-3000:]
    tokens = [learner["Authorization"].split()[1] for learner in learners]
    for name, log in text.items():
        for secret in (cluster.database_password, cluster.redis_password, secret_key, *tokens):
            assert secret not in log, f"a secret in {name}'s log"
        assert "Traceback" not in log or name == "worker1", log[-3000:]
