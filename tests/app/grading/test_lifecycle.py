"""The life cycle: claim (fairest first), store, engine faults, attempts, and recovery."""

from __future__ import annotations

import logging
import os
import socket
import threading
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from app.grading.lifecycle import WAKE_ANOTHER, work
from app.grading.recovery import recover, worker_is_dead
from app.grading.workers import BackgroundWork
from app.models import Submission, SubmissionKind, SubmissionStatus, Worker, utcnow
from app.runtime import rungs
from app.runtime.context import GradingRuntime, Lane
from app.runtime.queue import GradingQueue, QueueUnavailable
from app.services import release
from app.store import accounts as account_store
from app.store import leases as lease_store
from app.store import submissions as submission_store
from app.store import workers as worker_store
from graders.api import (
    CanaryResult,
    CpuPriority,
    ExerciseCatalog,
    GradeReport,
    PreparedExercise,
    SandboxError,
    SandboxStarved,
    Verdict,
)
from graders.results import Cost
from tests.app.conftest import EXERCISES, make_settings, wipe


class FakeQueue(GradingQueue):
    def __init__(self) -> None:
        super().__init__("memory://", "test-fake")
        self.sent: list[str] = []

    def enqueue(self, submission_id: str) -> None:
        self.sent.append(submission_id)


class FakeEngine:
    """Records the code it grades; ``boom`` is an engine fault, ``flaky`` one the first time,
    ``starved`` a host too busy to judge it the first time."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.priorities: list[CpuPriority] = []

    def __call__(
        self, prepared: PreparedExercise, code: str, public_only: bool, priority: CpuPriority
    ) -> GradeReport:
        self.calls.append(code)
        self.priorities.append(priority)
        if code == "boom" or (code == "flaky" and self.calls.count("flaky") == 1):
            raise SandboxError("zygote died")
        if code == "starved" and self.calls.count("starved") == 1:
            raise SandboxStarved("runnable but got 0.01 s of CPU time in 51 s")
        return GradeReport(
            exercise=prepared.exercise.id,
            version=prepared.exercise.version,
            verdict=Verdict.PASSED,
            duration_ms=3,
            cost=Cost(cpu_ms=41, memory_kb=2048),
        )


@pytest.fixture
def engine() -> FakeEngine:
    return FakeEngine()


@pytest.fixture
def fake(database_url: str, tmp_path: Path, engine: FakeEngine) -> Iterator[GradingRuntime]:
    yield GradingRuntime(
        settings=make_settings(database_url, tmp_path),
        catalog=ExerciseCatalog(EXERCISES),
        queue=FakeQueue(),
        grade=engine,
        canary=lambda: CanaryResult(True, 0.0),
        try_inputs=lambda *_: pytest.fail("the lifecycle never tries custom inputs"),
        missing=tuple,
    )
    wipe(database_url)


def _new(runtime: GradingRuntime, code: str = "x = 1", user: str = "ada", **values: object) -> str:
    with runtime.sessions() as session:
        owner = account_store.get_user_by_name(
            session=session, name=user
        ) or account_store.create_user(session=session, name=user)
        row = submission_store.create_submission(
            session=session,
            user=owner,
            exercise_id="gru-update-gate",
            exercise_version="v1",
            code=code,
            kind=SubmissionKind.SUBMIT,
            lease_expires_at=utcnow() + timedelta(seconds=60),
        )
        for key, value in values.items():
            setattr(row, key, value)
        session.commit()
        return row.id


def _row(runtime: GradingRuntime, submission_id: str) -> Submission:
    with runtime.sessions() as session:
        row = session.get(Submission, submission_id)
        assert row is not None
        return row


def test_work_stores_the_report_and_a_duplicate_message_is_a_no_op(
    fake: GradingRuntime, engine: FakeEngine
) -> None:
    submission_id = _new(fake)
    work(fake, submission_id)
    row = _row(fake, submission_id)
    assert row.status is SubmissionStatus.DONE and row.verdict is Verdict.PASSED
    assert row.attempts == 1 and row.duration_ms == 3 and row.lease_expires_at is None
    assert (row.cpu_ms, row.memory_kb) == (41, 2048)
    work(fake, submission_id)  # a duplicate message
    assert _row(fake, submission_id).attempts == 1
    assert engine.calls == ["x = 1"]


def test_a_waiting_learner_is_answered_only_once_the_done_line_is_logged(
    fake: GradingRuntime, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    submission_id = _new(fake)
    logged_at_answer: list[bool] = []
    answer = fake.waiters.notify

    def notify(*args: Any, **kwargs: Any) -> None:
        logged_at_answer.append(
            any(
                r.getMessage() == "submission.done"
                and getattr(r, "submission_id", None) == submission_id
                for r in caplog.records
            )
        )
        answer(*args, **kwargs)

    monkeypatch.setattr(fake.waiters, "notify", notify)
    with caplog.at_level(logging.INFO):
        work(fake, submission_id)
    assert logged_at_answer == [True]


def test_the_first_rung_is_measured_from_the_exercises_own_code_before_a_learners(
    fake: GradingRuntime, engine: FakeEngine
) -> None:
    """The rung is fixed before the first learner's code of the version runs (so it never
    depends on their run), from the reference and known mistakes, once per version; each
    result is released on the ladder from that rung, never before it was graded."""
    fake.first_rungs = rungs.FirstRungs(engine)
    exercise = fake.catalog.load("gru-update-gate")
    own = [(exercise.path / "solution.py").read_text(encoding="utf-8")]
    own += [m.path.read_text(encoding="utf-8") for m in exercise.mistakes]
    own = own[: 1 + rungs.MISTAKES_MEASURED]
    firsts = [_new(fake, "first"), _new(fake, "second", user="bob")]
    for submission_id in firsts:
        work(fake, submission_id)
    measured = [code for code in own for _ in range(rungs.RUNS_PER_FILE)]
    assert engine.calls == [*measured, "first", "second"]
    first = fake.first_rungs.known(exercise.version)
    assert first in rungs.FIRST_RUNGS
    for submission_id in firsts:
        row = _row(fake, submission_id)
        assert row.released_at and row.finished_at and row.released_at >= row.finished_at
        assert row.released_at == release.release_at(
            row.created_at, row.finished_at, timedelta(seconds=11), first
        )


def test_an_engine_fault_is_retried_and_never_blamed_on_the_learner(
    fake: GradingRuntime, engine: FakeEngine
) -> None:
    submission_id = _new(fake, "flaky")
    work(fake, submission_id)
    row = _row(fake, submission_id)
    assert row.status is SubmissionStatus.DONE and row.verdict is Verdict.PASSED
    assert row.attempts == 2 and engine.calls == ["flaky", "flaky"]


def test_a_submission_the_host_starved_is_graded_again_not_timed_out(
    fake: GradingRuntime, engine: FakeEngine
) -> None:
    submission_id = _new(fake, "starved")
    work(fake, submission_id)
    row = _row(fake, submission_id)
    assert row.status is SubmissionStatus.DONE and row.verdict is Verdict.PASSED
    assert row.attempts == 2 and engine.calls == ["starved", "starved"]


def test_the_lease_lasts_as_long_as_a_starved_grading_may(fake: GradingRuntime) -> None:
    submission_id = _new(fake)
    leases = []

    def grade(
        prepared: PreparedExercise, code: str, public_only: bool, priority: CpuPriority
    ) -> GradeReport:
        leases.append(_row(fake, submission_id).lease_expires_at)
        return GradeReport(exercise=prepared.exercise.id, version="v1", verdict=Verdict.PASSED)

    fake.grade = grade
    claimed_at = utcnow()
    work(fake, submission_id)
    # gru-update-gate: 5 s of CPU time, up to 51 s of wall-clock time when starved.
    ceiling = timedelta(seconds=51 + fake.settings.lease_margin_s)
    assert leases[0] is not None and leases[0] - claimed_at >= ceiling - timedelta(seconds=1)


def test_after_max_attempts_it_is_done_with_an_error_naming_the_grader(
    fake: GradingRuntime,
) -> None:
    submission_id = _new(fake, "boom")
    work(fake, submission_id)
    row = _row(fake, submission_id)
    assert row.status is SubmissionStatus.DONE and row.verdict is Verdict.ERROR
    assert f"tried {fake.settings.max_attempts} times" in row.message
    assert "not a fault of your code" in row.message
    assert row.score == 0.0 and row.attempts == fake.settings.max_attempts + 1


def test_a_running_row_with_a_live_lease_is_not_taken(
    fake: GradingRuntime, engine: FakeEngine
) -> None:
    submission_id = _new(
        fake,
        status=SubmissionStatus.RUNNING,
        worker="elsewhere:1",
        lease_expires_at=utcnow() + timedelta(seconds=60),
    )
    work(fake, submission_id)
    assert _row(fake, submission_id).status is SubmissionStatus.RUNNING
    assert engine.calls == []


def test_the_next_grading_goes_to_the_learner_served_longest_ago(
    fake: GradingRuntime, engine: FakeEngine
) -> None:
    flood = [_new(fake, f"flood {i}", user="flood") for i in range(3)]
    _new(fake, "ada", user="ada")
    _new(fake, "bob", user="bob")
    work(fake, flood[0])
    assert engine.calls == ["flood 0", "ada", "bob", "flood 1", "flood 2"]


def test_a_learner_at_the_running_limit_waits_and_others_go_first(
    fake: GradingRuntime, engine: FakeEngine
) -> None:
    _new(
        fake,
        "flood running",
        user="flood",
        status=SubmissionStatus.RUNNING,
        worker="elsewhere:1",
        lease_expires_at=utcnow() + timedelta(seconds=60),
    )
    waiting = _new(fake, "flood waiting", user="flood")
    _new(fake, "ada", user="ada")
    work(fake, waiting)
    assert engine.calls == ["ada"]  # flood has max_running_per_learner = 1 in flight
    assert _row(fake, waiting).status is SubmissionStatus.QUEUED


@pytest.mark.parametrize(
    ("lowest", "priority"), [(True, CpuPriority.BACKGROUND), (False, CpuPriority.NORMAL)]
)
def test_a_regrade_is_graded_at_background_priority_after_learners_own_work(
    fake: GradingRuntime, engine: FakeEngine, lowest: bool, priority: CpuPriority
) -> None:
    fake.settings = fake.settings.model_copy(update={"background_lowest_priority": lowest})
    regrade = _new(fake, "again", user="bob", regrade=True)
    own = _new(fake, "own", user="ada")
    work(fake, regrade)
    assert engine.calls == ["own", "again"]
    assert engine.priorities == [CpuPriority.NORMAL, priority]
    assert {_row(fake, i).status for i in (regrade, own)} == {SubmissionStatus.DONE}


def test_a_regrade_is_stored_at_its_boundary_and_the_next_starts_only_then(
    fake: GradingRuntime, engine: FakeEngine
) -> None:
    """A regrade is released on the ladder from its turn (here the last regrade release), and
    its thread takes the next one only then: a regrade starting at the previous one's end
    would show that end (docs/security.md, "Regrades")."""
    regrades = [_new(fake, code, regrade=True) for code in ("one", "two")]
    turn = utcnow()
    fake.lanes.regrades_freed_at = turn
    work(fake, regrades[0])
    assert engine.calls == ["one", "two"]  # graded in this order
    first, second = (_row(fake, i) for i in regrades)
    assert first.finished_at and second.started_at
    boundary = release.release_at(turn, first.finished_at, timedelta(seconds=11))
    assert second.started_at >= boundary
    # And the second's turn was that boundary: it held its place a boundary past it.
    assert fake.lanes.regrades_freed_at >= boundary + rungs.FIRST_STEP


def test_regrades_start_only_while_no_learner_grading_runs_here(
    fake: GradingRuntime, engine: FakeEngine
) -> None:
    """A learner's grading running: a woken thread takes learners' rows only and the regrade
    waits; every learner place free: the regrade place takes it; the regrade place busy:
    learners' rows only."""
    assert fake.lanes.free() == {Lane.LEARNERS, Lane.REGRADES}
    regrade = _new(fake, "again", user="bob", regrade=True)
    own = _new(fake, "own", user="ada")
    fake.lanes.take(Lane.LEARNERS)  # another thread grades a learner's submission
    assert fake.lanes.free() == {Lane.LEARNERS}
    work(fake, own)
    assert engine.calls == ["own"] and _row(fake, regrade).status is SubmissionStatus.QUEUED
    fake.lanes.release(Lane.LEARNERS)
    work(fake, regrade)
    assert engine.calls == ["own", "again"]
    assert _row(fake, regrade).status is SubmissionStatus.DONE
    fake.lanes.take(Lane.REGRADES)
    later = _new(fake, "again later", user="cy", regrade=True)
    _new(fake, "mine", user="dan")
    work(fake, later)
    assert engine.calls == ["own", "again", "mine"]
    assert _row(fake, later).status is SubmissionStatus.QUEUED


def test_regrade_threads_come_beside_the_learners_threads(
    database_url: str, tmp_path: Path
) -> None:
    settings = make_settings(database_url, tmp_path, workers=2, regrade_workers=1)
    assert (settings.grading_threads, settings.sandbox_pool_size) == (3, 3)
    web_only = make_settings(database_url, tmp_path, workers=0, regrade_workers=1)
    assert web_only.grading_threads == 0


def test_recovery_requeues_expired_leases_once(fake: GradingRuntime, engine: FakeEngine) -> None:
    expired = utcnow() - timedelta(seconds=1)
    stuck = _new(
        fake,
        "stuck",
        status=SubmissionStatus.RUNNING,
        worker="elsewhere:1",
        lease_expires_at=expired,
    )
    lost = _new(fake, "lost", lease_expires_at=expired)
    fresh = _new(fake, "fresh")
    assert sorted(recover(runtime=fake)) == sorted([stuck, lost])
    assert recover(runtime=fake) == []  # the leases were renewed
    assert _row(fake, stuck).status is SubmissionStatus.QUEUED
    assert fresh not in fake.queue.sent  # type: ignore[attr-defined]
    work(fake, stuck)
    assert {_row(fake, i).status for i in (stuck, lost, fresh)} == {SubmissionStatus.DONE}


def test_startup_recovery_takes_rows_of_dead_local_workers(fake: GradingRuntime) -> None:
    live_lease = utcnow() + timedelta(seconds=60)
    host = socket.gethostname()
    dead = _new(
        fake,
        status=SubmissionStatus.RUNNING,
        worker=f"{host}:999999999",
        lease_expires_at=live_lease,
    )
    alive = _new(
        fake, status=SubmissionStatus.RUNNING, worker=f"{host}:1", lease_expires_at=live_lease
    )
    remote = _new(
        fake, status=SubmissionStatus.RUNNING, worker="other-host:5", lease_expires_at=live_lease
    )
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


def test_warming_the_exercises_ends_when_the_process_stops(
    fake: GradingRuntime, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Preparing every exercise takes seconds of CPU: a stopped process does not go on."""
    prepared: list[str] = []

    def prepare(exercise_id: str) -> None:
        prepared.append(exercise_id)
        fake.stopping.set()

    monkeypatch.setattr(fake.catalog, "prepared", prepare)
    BackgroundWork(fake, grading_threads=1)._warm()
    assert prepared == fake.catalog.ids()[:1]


@pytest.mark.parametrize("at_start", [True, False])
def test_the_exercises_are_prepared_at_start_only_where_the_settings_ask(
    fake: GradingRuntime, monkeypatch: pytest.MonkeyPatch, at_start: bool
) -> None:
    """``NUMJUDGE_PREPARE_AT_START``: a process that starts prepares every exercise in a
    thread of its own, or none until its first submission."""
    release_preparation, preparing = threading.Event(), threading.Event()

    def prepare(exercise_id: str) -> None:
        preparing.set()
        release_preparation.wait()

    monkeypatch.setattr(fake.catalog, "prepared", prepare)
    monkeypatch.setattr(
        fake, "settings", fake.settings.model_copy(update={"prepare_at_start": at_start})
    )
    work = BackgroundWork(fake, grading_threads=1, embedded=False)
    work.start()
    try:
        warming = [t for t in threading.enumerate() if t.name == "numjudge-warm"]
        assert len(warming) == at_start
        assert preparing.wait(timeout=30) if at_start else not preparing.is_set()
    finally:
        work.stop()
        release_preparation.set()
        for thread in warming:
            thread.join(timeout=30)


def test_a_candidate_list_lost_to_other_machines_is_drawn_again(
    fake: GradingRuntime, engine: FakeEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another machine takes every learner of the first list; the thread keeps its wake-up
    and claims from a fresh list."""
    submission_id = _new(fake, "mine")
    real_claim = lease_store.claim_submission
    lost = iter([True, True])

    def claim(**kwargs: object) -> Submission | None:
        return None if next(lost, False) else real_claim(**kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(lease_store, "claim_submission", claim)
    work(fake, "another")
    assert _row(fake, submission_id).status is SubmissionStatus.DONE
    assert engine.calls == ["mine"]


def test_a_claim_that_leaves_claimable_rows_wakes_another_thread(
    fake: GradingRuntime, engine: FakeEngine
) -> None:
    queue = fake.queue
    assert isinstance(queue, FakeQueue)
    _new(fake, "ada", user="ada")
    _new(fake, "bob", user="bob")
    work(fake, "first")
    # Claiming ada's row left bob's: one wake-up for an idle thread anywhere. Claiming bob's
    # left nothing: no more.
    assert queue.sent == [WAKE_ANOTHER] and engine.calls == ["ada", "bob"]


def test_a_silent_workers_rows_return_long_before_their_lease_ends(fake: GradingRuntime) -> None:
    now = utcnow()
    claimed = now - timedelta(seconds=fake.settings.worker_silence_s + 5)
    live_lease = now + timedelta(seconds=30)
    with fake.sessions() as session:
        for worker, beat_at in (("killed:7", claimed), ("alive:8", now)):
            worker_store.beat(
                session=session,
                worker=worker,
                threads=2,
                started_at=claimed,
                now=beat_at,
                canary=None,
            )
        session.commit()
    orphan = _new(
        fake,
        "orphan",
        status=SubmissionStatus.RUNNING,
        worker="killed:7",
        started_at=claimed,
        lease_expires_at=live_lease,
    )
    kept = _new(
        fake,
        "kept",
        status=SubmissionStatus.RUNNING,
        worker="alive:8",
        started_at=claimed,
        lease_expires_at=live_lease,
    )
    assert recover(runtime=fake, now=now) == [orphan]
    assert _row(fake, orphan).status is SubmissionStatus.QUEUED
    assert _row(fake, kept).status is SubmissionStatus.RUNNING
    with fake.sessions() as session:  # the dead worker's record is gone, the live one's kept
        assert [w.id for w in session.scalars(select(Worker))] == ["alive:8"]


def test_recovery_touches_no_row_while_the_queue_is_down(
    fake: GradingRuntime, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    lost = _new(fake, "lost", lease_expires_at=utcnow() - timedelta(seconds=1))
    before = _row(fake, lost).lease_expires_at

    def down() -> None:
        raise QueueUnavailable("queue redis://nowhere: connection refused")

    monkeypatch.setattr(fake.queue, "check", down)
    for _ in range(3):
        with pytest.raises(QueueUnavailable):
            recover(runtime=fake)
    assert _row(fake, lost).lease_expires_at == before
    assert "submission.requeued" not in caplog.text


def test_one_process_at_a_time_re_sends_rows(fake: GradingRuntime, database_url: str) -> None:
    if not database_url.startswith("postgresql"):
        pytest.skip("SQLite serves one machine: every pass may run")
    lost = _new(fake, "lost", lease_expires_at=utcnow() - timedelta(seconds=1))
    with fake.sessions() as other:  # another process in the middle of its pass
        assert lease_store.take_recovery_turn(session=other)
        assert recover(runtime=fake) == []
    assert recover(runtime=fake) == [lost]
