"""Submissions from ``queued`` to ``done``: submit, enqueue, grade, store, recover.

The database row is the truth. A worker *claims* a row with a compare-and-set that also
gives it a lease (the exercise's time limit plus a margin); it stores the report only if it
still holds that lease. Recovery (at start-up and every few seconds) puts back in the queue
every row whose lease ran out, or whose worker died on this host, so a submission is never
lost and never stuck; after ``max_attempts`` claims it is finished with an error verdict.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from app import crud
from app.core.config import Settings
from app.core.db import get_sessionmaker
from app.models import Submission, SubmissionKind, SubmissionStatus, User, utcnow
from app.services.waiters import ResultWaiters
from app.tasks import GradingQueue
from graders.errors import ExerciseError, ExerciseNotFound
from graders.exercises import Exercise, ExerciseCatalog, PreparedExercise
from graders.grading import grade
from graders.results import GradeReport, Verdict
from graders.sandbox import Sandbox, SandboxLimits

logger = logging.getLogger(__name__)

GradeFunction = Callable[[PreparedExercise, str, bool], GradeReport]
ENGINE_RETRY_DELAY_S = 1.0


def worker_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


class SandboxGrader:
    """The engine's ``grade`` with one shared, lazily started ``Sandbox`` per process."""

    def __init__(self, pool_size: int, limits: SandboxLimits) -> None:
        self.pool_size = pool_size
        self.limits = limits
        self._sandbox: Sandbox | None = None
        self._lock = threading.Lock()

    def start(self) -> Sandbox:
        with self._lock:
            if self._sandbox is None:
                self._sandbox = Sandbox(workers=self.pool_size, limits=self.limits)
            return self._sandbox

    def __call__(self, prepared: PreparedExercise, code: str, public_only: bool) -> GradeReport:
        sandbox = self._sandbox or self.start()
        return grade(prepared, code, sandbox, public_only=public_only)

    def close(self) -> None:
        with self._lock:
            if self._sandbox is not None:
                self._sandbox.close()
                self._sandbox = None


@dataclass
class GradingRuntime:
    """Everything one process needs to accept and grade submissions."""

    settings: Settings
    catalog: ExerciseCatalog
    queue: GradingQueue
    grade: GradeFunction
    waiters: ResultWaiters = field(default_factory=ResultWaiters)
    sessions: sessionmaker[Session] = field(init=False)

    def __post_init__(self) -> None:
        self.sessions = get_sessionmaker(self.settings.database_url)

    @classmethod
    def from_settings(cls, settings: Settings) -> GradingRuntime:
        return cls(settings=settings, catalog=ExerciseCatalog(settings.exercises_dir),
                   queue=GradingQueue(settings.queue_url),
                   grade=SandboxGrader(settings.sandbox_pool_size, settings.sandbox_limits))


_runtime: GradingRuntime | None = None


def install_runtime(runtime: GradingRuntime | None) -> None:
    """Make ``runtime`` the one that queue tasks in this process use."""
    global _runtime
    _runtime = runtime


def get_runtime() -> GradingRuntime:
    global _runtime
    if _runtime is None:
        from app.core.config import get_settings

        _runtime = GradingRuntime.from_settings(get_settings())
    return _runtime


def _event(name: str, submission: Submission | None = None, **fields: Any) -> None:
    extra: dict[str, Any] = {}
    if submission is not None:
        extra = {"submission_id": submission.id, "exercise": submission.exercise_id,
                 "user_id": submission.user_id, "kind": submission.kind.value}
    extra.update(fields)
    logger.info(name, extra=extra)


# --- accepting ------------------------------------------------------------------------------

def submit(*, runtime: GradingRuntime, session: Session, user: User, exercise: Exercise,
           code: str, kind: SubmissionKind, submission_id: str | None = None) -> Submission:
    """Store a queued submission, commit it, and send its id to the queue."""
    submission = crud.create_submission(
        session=session, user=user, exercise_id=exercise.id, exercise_version=exercise.version,
        code=code, kind=kind, submission_id=submission_id,
        lease_expires_at=utcnow() + timedelta(seconds=runtime.settings.queue_lease_s))
    session.commit()
    _event("submission.queued", submission, version=exercise.version, code_bytes=len(code))
    runtime.queue.enqueue(submission.id)
    return submission


# --- grading --------------------------------------------------------------------------------

def _lease_length(runtime: GradingRuntime, exercise_id: str) -> float:
    try:
        limit = runtime.catalog.load(exercise_id).limits.time_s
    except ExerciseError:
        limit = 0.0
    return limit + runtime.settings.lease_margin_s


def _finish(runtime: GradingRuntime, submission: Submission, lease_token: str | None,
            *, verdict: Verdict, message: str = "", report: GradeReport | None = None,
            started: float | None = None) -> None:
    values: dict[str, Any] = {"verdict": verdict, "message": message, "finished_at": utcnow()}
    if report is not None:
        values.update(score=report.score, max_score=report.max_score,
                      tests=[t.to_dict() for t in report.tests], output=report.output,
                      duration_ms=report.duration_ms, exercise_version=report.version)
    else:
        values.update(score=0.0, tests=[], duration_ms=0)
    with runtime.sessions() as session:
        stored = crud.finish_submission(session=session, submission_id=submission.id,
                                        lease_token=lease_token, values=values)
        session.commit()
    if stored:
        for key, value in values.items():  # the detached copy now equals the stored row
            setattr(submission, key, value)
        submission.status, submission.lease_expires_at = SubmissionStatus.DONE, None
        runtime.waiters.notify(submission.id, submission)
        elapsed = round((time.perf_counter() - started) * 1000, 1) if started else None
        _event("submission.done", submission, verdict=verdict.value,
               score=values.get("score"), max_score=values.get("max_score"),
               grade_ms=values.get("duration_ms"), elapsed_ms=elapsed)
    else:
        _event("submission.result_dropped", submission, reason="lease lost")


def run_submission(submission_id: str, runtime: GradingRuntime | None = None) -> None:
    """Grade one submission if it can be claimed; store the report (the queue task's body)."""
    runtime = runtime or get_runtime()
    settings = runtime.settings
    started = time.perf_counter()
    now = utcnow()
    lease_token = uuid.uuid4().hex
    with runtime.sessions() as session:
        submission = crud.get_submission(session=session, submission_id=submission_id)
        if submission is None or submission.status is SubmissionStatus.DONE:
            logger.debug("submission.skipped", extra={"submission_id": submission_id})
            return
        lease = timedelta(seconds=_lease_length(runtime, submission.exercise_id))
        attempt = crud.claim_submission(session=session, submission_id=submission_id,
                                        worker=worker_id(), lease_token=lease_token,
                                        lease_expires_at=now + lease, now=now)
        session.commit()
        if attempt is None:
            _event("submission.skipped", submission, reason="held by a live lease")
            return
    # The session is closed: keep the detached copy in step with the claimed row.
    submission.status, submission.attempts, submission.started_at = (
        SubmissionStatus.RUNNING, attempt, now)
    submission.worker, submission.lease_token = worker_id(), lease_token
    _event("submission.running", submission, attempt=attempt, worker=worker_id())
    if attempt > settings.max_attempts:
        _finish(runtime, submission, lease_token, verdict=Verdict.ERROR, started=started,
                message=f"Grading was tried {settings.max_attempts} times and never finished "
                        "(the grader was lost each time). Submit again; if it happens again, "
                        "tell your instructor.")
        return
    try:
        prepared = runtime.catalog.prepared(submission.exercise_id)
    except ExerciseNotFound:
        _finish(runtime, submission, lease_token, verdict=Verdict.ERROR, started=started,
                message=f"Exercise {submission.exercise_id!r} no longer exists.")
        return
    except ExerciseError as exc:
        logger.exception("exercise.broken", extra={"exercise": submission.exercise_id})
        _finish(runtime, submission, lease_token, verdict=Verdict.ERROR, started=started,
                message=f"Exercise {submission.exercise_id!r} is broken; tell your "
                        f"instructor: {exc}")
        return
    try:
        report = runtime.grade(prepared, submission.code,
                               submission.kind is SubmissionKind.RUN)
    except Exception as exc:  # an engine fault, never the learner's code
        logger.exception("submission.engine_fault",
                         extra={"submission_id": submission.id, "error": type(exc).__name__})
        _retry_later(runtime, submission, lease_token)
        return
    _finish(runtime, submission, lease_token, verdict=report.verdict, message=report.message,
            report=report, started=started)


def _retry_later(runtime: GradingRuntime, submission: Submission, lease_token: str) -> None:
    with runtime.sessions() as session:
        released = crud.release_submission(
            session=session, submission_id=submission.id, lease_token=lease_token,
            lease_expires_at=utcnow() + timedelta(seconds=runtime.settings.queue_lease_s))
        session.commit()
    if released:
        _event("submission.requeued", submission, reason="engine fault")
        runtime.queue.enqueue(submission.id, delay=ENGINE_RETRY_DELAY_S)


# --- recovery -------------------------------------------------------------------------------

def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def worker_is_dead(worker: str | None) -> bool:
    """True when ``worker`` ran on this host in a process that no longer runs (or is us)."""
    if not worker or ":" not in worker:
        return False
    host, _, pid_text = worker.rpartition(":")
    if host != socket.gethostname() or not pid_text.isdigit():
        return False
    pid = int(pid_text)
    return pid == os.getpid() or not _pid_alive(pid)


def recover(*, runtime: GradingRuntime, startup: bool = False,
            now: datetime | None = None) -> list[str]:
    """Re-enqueue submissions left behind; returns their ids.

    Always: rows whose lease ran out. At start-up also: every queued row (its message may be
    gone with a dead process's queue) and running rows whose worker on this host is dead.
    """
    now = now or utcnow()
    lease = now + timedelta(seconds=runtime.settings.queue_lease_s)
    requeued: list[str] = []
    with runtime.sessions() as session:
        rows = crud.unfinished_submissions(session=session,
                                           expired_before=None if startup else now)
        for row in rows:
            expired = row.lease_expires_at is None or row.lease_expires_at < now
            if not expired and row.status is SubmissionStatus.RUNNING and \
                    not worker_is_dead(row.worker):
                continue
            if crud.requeue_submission(session=session, submission_id=row.id,
                                       seen_lease=row.lease_expires_at, lease_expires_at=lease):
                requeued.append(row.id)
                _event("submission.requeued", row, reason="startup" if startup else "lease",
                       was=row.status.value, attempts=row.attempts)
        session.commit()
    for submission_id in requeued:
        runtime.queue.enqueue(submission_id)
    return requeued


class RecoveryThread(threading.Thread):
    """Runs :func:`recover` every ``recovery_interval_s`` until stopped."""

    def __init__(self, runtime: GradingRuntime) -> None:
        super().__init__(name="numjudge-recovery", daemon=True)
        self.runtime = runtime
        self._stop_event = threading.Event()

    def run(self) -> None:
        while not self._stop_event.wait(self.runtime.settings.recovery_interval_s):
            try:
                recover(runtime=self.runtime)
            except Exception:
                logger.exception("recovery.failed")

    def stop(self) -> None:
        self._stop_event.set()


@dataclass
class GradingWorkers:
    """The grading side of a process: sandbox, queue consumer and recovery thread."""

    runtime: GradingRuntime
    workers: int
    embedded: bool = True
    recovery: RecoveryThread | None = None

    def start(self) -> None:
        grade = self.runtime.grade
        if isinstance(grade, SandboxGrader):
            grade.start()
        threading.Thread(target=self._warm, name="numjudge-warm", daemon=True).start()
        recover(runtime=self.runtime, startup=True)
        if self.embedded:
            self.runtime.queue.start_embedded(self.workers)
        self.recovery = RecoveryThread(self.runtime)
        self.recovery.start()

    def _warm(self) -> None:
        """Prepare every exercise once so the first submission of each is fast."""
        for exercise_id in self.runtime.catalog.ids():
            try:
                self.runtime.catalog.prepared(exercise_id)
            except ExerciseError as exc:
                logger.warning("exercise.broken", extra={"exercise": exercise_id,
                                                         "error": str(exc)})

    def stop(self) -> None:
        if self.recovery is not None:
            self.recovery.stop()
        self.runtime.queue.stop()
        grade = self.runtime.grade
        if isinstance(grade, SandboxGrader):
            grade.close()
