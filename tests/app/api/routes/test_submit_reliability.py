"""POST /submit under pressure: idempotency keys, per-learner limits, a queue that is down,
errors that are always JSON, and /healthz saying whether a submission can be graded."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from datetime import timedelta

import pytest
from fastapi.testclient import TestClient

from app.grading.heartbeat import HeartbeatThread
from app.grading.recovery import recover
from app.main import create_app
from app.models import Submission, User, utcnow
from app.runtime.context import GradingRuntime
from app.runtime.queue import QueueUnavailable
from graders.api import CanaryResult, CpuPriority, GradeReport, PreparedExercise
from tests.app.conftest import read_exercise_file

EXERCISE = "gru-update-gate"
MakeUser = Callable[..., tuple[User, dict[str, str]]]


def body(code: str) -> dict[str, str]:
    return {"exercise": EXERCISE, "code": code}


@pytest.fixture
def idle(runtime: GradingRuntime) -> Iterator[TestClient]:
    """The app without grading threads: submissions stay queued."""
    with TestClient(create_app(runtime=runtime, grading=False)) as client:
        yield client


def _row(runtime: GradingRuntime, submission_id: str) -> Submission:
    with runtime.sessions() as session:
        row = session.get(Submission, submission_id)
        assert row is not None
        return row


# The idempotency key is a unique index of the database.
@pytest.mark.both_databases
def test_the_same_idempotency_key_answers_the_same_submission(
    idle: TestClient, make_user: MakeUser
) -> None:
    _, ada = make_user("ada")
    _, bob = make_user("bob")
    first = idle.post("/submit", json=body("x = 1"), headers={**ada, "Idempotency-Key": "k1"})
    again = idle.post("/submit", json=body("x = 1"), headers={**ada, "Idempotency-Key": "k1"})
    assert first.status_code == again.status_code == 202
    assert again.json()["id"] == first.json()["id"]
    other_user = idle.post("/submit", json=body("x = 1"), headers={**bob, "Idempotency-Key": "k1"})
    assert other_user.json()["id"] != first.json()["id"]
    new_key = idle.post("/submit", json=body("x = 1"), headers={**ada, "Idempotency-Key": "k2"})
    assert new_key.json()["id"] != first.json()["id"]
    reused = idle.post("/submit", json=body("x = 2"), headers={**ada, "Idempotency-Key": "k1"})
    assert reused.status_code == 422 and "Idempotency-Key 'k1'" in reused.json()["detail"]


def test_over_the_waiting_limit_is_429_with_retry_after(
    runtime: GradingRuntime, make_user: MakeUser
) -> None:
    runtime.settings = runtime.settings.model_copy(update={"max_waiting_per_learner": 2})
    _, ada = make_user("ada")
    _, bob = make_user("bob")
    with TestClient(create_app(runtime=runtime, grading=False)) as client:
        for _ in range(2):
            assert client.post("/submit", json=body("x = 1"), headers=ada).status_code == 202
        refused = client.post("/submit", json=body("x = 1"), headers=ada)
        assert client.post("/submit", json=body("x = 1"), headers=bob).status_code == 202
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) >= 1
    assert refused.json()["detail"].startswith("You have 2 submissions waiting")


def test_over_the_rate_limit_is_429_until_the_minute_passed(
    runtime: GradingRuntime, make_user: MakeUser
) -> None:
    runtime.settings = runtime.settings.model_copy(update={"submit_rate_per_minute": 3})
    _, ada = make_user("ada")
    with TestClient(create_app(runtime=runtime, grading=False)) as client:
        for _ in range(3):
            assert client.post("/run", json=body("x = 1"), headers=ada).status_code == 202
        refused = client.post("/submit", json=body("x = 1"), headers=ada)
    assert refused.status_code == 429
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert "in the last minute (the limit is 3)" in refused.json()["detail"]


# What the queue did not take stays due in the database (its lease) for the recovery pass.
@pytest.mark.both_databases
def test_a_saved_submission_is_answered_202_when_the_queue_is_down(
    idle: TestClient, runtime: GradingRuntime, make_user: MakeUser, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, ada = make_user("ada")

    def down(submission_id: str) -> None:
        raise QueueUnavailable("queue redis://nowhere: connection refused")

    monkeypatch.setattr(runtime.queue, "enqueue", down)
    response = idle.post("/submit", json=body("x = 1"), headers=ada)
    assert response.status_code == 202 and response.json()["status"] == "queued"
    row = _row(runtime, response.json()["id"])
    assert row.lease_expires_at is not None and row.lease_expires_at <= utcnow()
    with pytest.raises(QueueUnavailable):  # still down: the row stays due
        recover(runtime=runtime)
    monkeypatch.undo()
    assert recover(runtime=runtime) == [row.id]  # back: the next pass sends it
    lease = _row(runtime, row.id).lease_expires_at
    assert lease is not None and lease > utcnow() + timedelta(seconds=1)


def test_an_unexpected_failure_is_a_json_500(
    runtime: GradingRuntime, make_user: MakeUser, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, ada = make_user("ada")

    def broken(exercise_id: str) -> None:
        raise RuntimeError("disk on fire")

    with TestClient(
        create_app(runtime=runtime, grading=False), raise_server_exceptions=False
    ) as client:
        monkeypatch.setattr(runtime.catalog, "load", broken)
        response = client.post("/submit", json=body("x = 1"), headers=ada)
    assert response.status_code == 500
    assert response.headers["content-type"] == "application/json"
    assert response.json() == {
        "detail": "The server failed to answer; try again shortly (RuntimeError)"
    }


def test_healthz_is_ok_with_a_live_worker_and_a_passing_canary(client: TestClient) -> None:
    health = client.get("/healthz")
    assert health.status_code == 200, health.json()
    data = health.json()
    assert data["sandbox"] == "ok" and data["workers"] == 1
    assert data["grading_threads"] == 3  # two for learners, one for regrades
    assert data["canary_age_s"] is not None and data["problems"] == []
    assert data["queued"] == 0 and data["oldest_queued_s"] is None


def test_healthz_is_503_without_a_worker_and_counts_queued_rows(
    idle: TestClient, make_user: MakeUser
) -> None:
    _, ada = make_user("ada")
    idle.post("/submit", json=body("x = 1"), headers=ada)
    health = idle.get("/healthz")
    assert health.status_code == 503
    data = health.json()
    assert data["status"] == "degraded" and data["workers"] == 0
    assert data["queued"] == 1 and data["oldest_queued_s"] >= 0
    assert data["database"] == data["queue"] == "ok"
    assert "no grading worker" in data["problems"][0]


def test_healthz_is_503_when_the_canary_fails(runtime: GradingRuntime) -> None:
    runtime.canary = lambda: CanaryResult(False, 0.1, "the canary did not complete: crashed")
    with TestClient(create_app(runtime=runtime)) as client:
        health = client.get("/healthz")
    assert health.status_code == 503
    assert health.json()["workers"] == 1
    assert health.json()["sandbox"] == "failing: the canary did not complete: crashed"


def test_healthz_is_503_while_a_working_folder_of_the_sandbox_is_missing(
    runtime: GradingRuntime,
) -> None:
    gone = ("zygote 0's state folder /tmp/numjudge-sandbox-x",)
    missing: tuple[str, ...] = ()
    runtime.missing = lambda: missing
    with TestClient(create_app(runtime=runtime)) as client:
        assert client.get("/healthz").status_code == 200  # a passing canary, nothing missing
        missing = gone
        health = client.get("/healthz")
        assert health.status_code == 503
        assert (
            health.json()["sandbox"] == "missing: zygote 0's state folder /tmp/numjudge-sandbox-x"
        )
        assert health.json()["problems"] == [
            "working folders of the sandbox vanished (made again before the next grading)"
        ]
        missing = ()
        assert client.get("/healthz").status_code == 200


def test_a_heartbeat_runs_the_canary_at_once_when_a_working_folder_is_missing(
    runtime: GradingRuntime,
) -> None:
    canaries: list[float] = []
    missing: tuple[str, ...] = ()

    def canary() -> CanaryResult:
        canaries.append(time.monotonic())
        return CanaryResult(True, 0.0)

    runtime.canary, runtime.missing = canary, lambda: missing
    heartbeat = HeartbeatThread(runtime, threads=1)
    heartbeat.beat_now()
    heartbeat.beat_now()  # within NUMJUDGE_CANARY_INTERVAL_S: no canary
    assert len(canaries) == 1
    missing = ("the root image's folder /tmp/numjudge-sandbox-y",)
    heartbeat.beat_now()  # the canary makes the folders again first (SandboxGrader.canary)
    assert len(canaries) == 2


def test_healthz_is_503_when_the_queue_is_down(
    client: TestClient, runtime: GradingRuntime, monkeypatch: pytest.MonkeyPatch
) -> None:
    def down() -> None:
        raise QueueUnavailable("cannot reach the queue")

    monkeypatch.setattr(runtime.queue, "check", down)
    health = client.get("/healthz")
    assert health.status_code == 503 and health.json()["queue"] == "error: QueueUnavailable"


# Grading slots are leases in the database, taken by two grading threads at once.
@pytest.mark.both_databases
def test_a_grading_slot_is_held_per_learner_and_the_rest_are_graded(
    runtime: GradingRuntime, make_user: MakeUser
) -> None:
    """End to end with two grading threads: with the default of one running per learner,
    every submission is graded once and never two of one learner's at the same time."""
    engine = runtime.grade
    lock = threading.Lock()
    running: dict[str, int] = {}
    most: dict[str, int] = {}

    def watched(
        prepared: PreparedExercise, code: str, public_only: bool, priority: CpuPriority
    ) -> GradeReport:
        learner = code.splitlines()[0]  # "# ada" (or the canary's reference solution)
        with lock:
            running[learner] = running.get(learner, 0) + 1
            most[learner] = max(most.get(learner, 0), running[learner])
        try:
            return engine(prepared, code, public_only, priority)
        finally:
            with lock:
                running[learner] -= 1

    runtime.grade = watched
    learners = {name: make_user(name)[1] for name in ("ada", "bob")}
    code = read_exercise_file(EXERCISE, "solution.py")
    with TestClient(create_app(runtime=runtime)) as client:
        sent = [
            (
                name,
                client.post(
                    "/submit", json=body(f"# {name}\n{code}"), headers=learners[name]
                ).json()["id"],
            )
            for name in ("ada", "ada", "ada", "bob", "bob")
        ]
        for name, submission_id in sent:
            result = client.get(f"/submissions/{submission_id}", headers=learners[name])
            deadline = time.monotonic() + 60
            while result.json()["status"] != "done" and time.monotonic() < deadline:
                time.sleep(0.05)  # a poll period, not a guess at how long grading takes
                result = client.get(f"/submissions/{submission_id}", headers=learners[name])
            assert result.json()["verdict"] == "passed" and result.json()["attempts"] == 1
    assert {k: v for k, v in most.items() if k.startswith("# ")} == {"# ada": 1, "# bob": 1}
