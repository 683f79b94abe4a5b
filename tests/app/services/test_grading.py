"""The lifecycle: claim, store, engine faults, attempts, and recovery of lost gradings."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from app import crud
from app.models import Submission, SubmissionKind, SubmissionStatus, utcnow
from app.services import grading
from app.services.grading import GradingRuntime, recover, run_submission, worker_is_dead
from app.tasks import GradingQueue
from graders.errors import SandboxError
from graders.exercises import ExerciseCatalog, PreparedExercise
from graders.results import GradeReport, Verdict
from tests.app.conftest import EXERCISES, make_settings, wipe


class FakeQueue(GradingQueue):
    def __init__(self) -> None:
        super().__init__("memory://")
        self.sent: list[str] = []

    def enqueue(self, submission_id: str, *, delay: float | None = None) -> None:
        self.sent.append(submission_id)


@pytest.fixture
def fake(database_url: str, tmp_path: Path) -> Iterator[GradingRuntime]:
    calls: list[str] = []

    def grade(prepared: PreparedExercise, code: str, public_only: bool) -> GradeReport:
        calls.append(code)
        if code == "boom":
            raise SandboxError("zygote died")
        return GradeReport(exercise=prepared.exercise.id, version=prepared.exercise.version,
                           verdict=Verdict.PASSED, duration_ms=3)

    runtime = GradingRuntime(settings=make_settings(database_url, tmp_path),
                             catalog=ExerciseCatalog(EXERCISES), queue=FakeQueue(),
                             grade=grade)
    runtime.calls = calls  # type: ignore[attr-defined]
    yield runtime
    wipe(database_url)


def _new(runtime: GradingRuntime, code: str = "x = 1", **values: object) -> str:
    with runtime.sessions() as session:
        user = crud.get_user_by_name(session=session, name="ada") or \
            crud.create_user(session=session, name="ada")
        row = grading.submit(runtime=runtime, session=session, user=user,
                             exercise=runtime.catalog.load("gru-update-gate"), code=code,
                             kind=SubmissionKind.SUBMIT)
        for key, value in values.items():
            setattr(row, key, value)
        session.commit()
        return row.id


def _row(runtime: GradingRuntime, submission_id: str) -> Submission:
    with runtime.sessions() as session:
        row = session.get(Submission, submission_id)
        assert row is not None
        return row


def test_submit_enqueues_and_run_stores_the_report(fake: GradingRuntime) -> None:
    submission_id = _new(fake)
    assert fake.queue.sent == [submission_id]  # type: ignore[attr-defined]
    run_submission(submission_id, fake)
    row = _row(fake, submission_id)
    assert row.status is SubmissionStatus.DONE and row.verdict is Verdict.PASSED
    assert row.attempts == 1 and row.duration_ms == 3 and row.lease_expires_at is None
    run_submission(submission_id, fake)  # a duplicate message is a no-op
    assert _row(fake, submission_id).attempts == 1
    assert fake.calls == ["x = 1"]  # type: ignore[attr-defined]


def test_engine_fault_puts_it_back_in_the_queue(fake: GradingRuntime) -> None:
    submission_id = _new(fake, "boom")
    run_submission(submission_id, fake)
    row = _row(fake, submission_id)
    assert row.status is SubmissionStatus.QUEUED and row.attempts == 1
    assert fake.queue.sent == [submission_id, submission_id]  # type: ignore[attr-defined]


def test_after_max_attempts_it_is_done_with_an_error(fake: GradingRuntime) -> None:
    submission_id = _new(fake, "boom")
    for _ in range(fake.settings.max_attempts + 1):
        run_submission(submission_id, fake)
    row = _row(fake, submission_id)
    assert row.status is SubmissionStatus.DONE and row.verdict is Verdict.ERROR
    assert f"tried {fake.settings.max_attempts} times" in row.message
    assert row.score == 0.0


def test_a_running_row_with_a_live_lease_is_not_taken(fake: GradingRuntime) -> None:
    submission_id = _new(fake, status=SubmissionStatus.RUNNING, worker="elsewhere:1",
                         lease_expires_at=utcnow() + timedelta(seconds=60))
    run_submission(submission_id, fake)
    assert _row(fake, submission_id).status is SubmissionStatus.RUNNING
    assert fake.calls == []  # type: ignore[attr-defined]


def test_recovery_requeues_expired_leases_once(fake: GradingRuntime) -> None:
    expired = utcnow() - timedelta(seconds=1)
    stuck = _new(fake, status=SubmissionStatus.RUNNING, worker="elsewhere:1",
                 lease_expires_at=expired)
    lost = _new(fake, lease_expires_at=expired)
    fresh = _new(fake)
    fake.queue.sent.clear()  # type: ignore[attr-defined]
    assert sorted(recover(runtime=fake)) == sorted([stuck, lost])
    assert recover(runtime=fake) == []  # the leases were renewed
    assert _row(fake, stuck).status is SubmissionStatus.QUEUED
    assert fresh not in fake.queue.sent  # type: ignore[attr-defined]
    for submission_id in (stuck, lost, fresh):
        run_submission(submission_id, fake)
        assert _row(fake, submission_id).status is SubmissionStatus.DONE


def test_startup_recovery_takes_rows_of_dead_local_workers(fake: GradingRuntime) -> None:
    live_lease = utcnow() + timedelta(seconds=60)
    host = socket.gethostname()
    dead = _new(fake, status=SubmissionStatus.RUNNING, worker=f"{host}:999999999",
                lease_expires_at=live_lease)
    alive = _new(fake, status=SubmissionStatus.RUNNING, worker=f"{host}:1",
                 lease_expires_at=live_lease)
    remote = _new(fake, status=SubmissionStatus.RUNNING, worker="other-host:5",
                  lease_expires_at=live_lease)
    queued = _new(fake)
    assert sorted(recover(runtime=fake, startup=True)) == sorted([dead, queued])
    assert {_row(fake, i).status for i in (alive, remote)} == {SubmissionStatus.RUNNING}


def test_worker_is_dead() -> None:
    host = socket.gethostname()
    assert worker_is_dead(f"{host}:{os.getpid()}")  # a previous life of this very process
    assert worker_is_dead(f"{host}:999999999")
    assert not worker_is_dead(f"{host}:1")
    assert not worker_is_dead("another-host:999999999")
    assert not worker_is_dead(None)
