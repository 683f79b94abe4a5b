"""The runtime: what one process needs to accept and grade submissions, built in one place
(``build_runtime``) for ``create_app`` and for ``numjudge worker``."""

from __future__ import annotations

import os
import socket
import threading
from dataclasses import dataclass, field
from enum import Enum

from sqlalchemy.orm import Session, sessionmaker

from app.core.backoff import Backoff
from app.core.config import Settings
from app.core.db import get_sessionmaker
from app.models import utcnow
from app.runtime.engine import (
    CanaryFunction,
    GradeFunction,
    MissingFunction,
    SandboxGrader,
    TryFunction,
)
from app.runtime.queue import GradingQueue
from app.runtime.rungs import FirstRungs
from app.runtime.tries import TriesInFlight
from app.runtime.waiters import ResultWaiters
from graders.api import ExerciseCatalog


class Lane(Enum):
    """Which queued rows a grading thread takes."""

    LEARNERS = "learners"
    """Learners' own submissions and runs."""
    REGRADES = "regrades"


class GradingLanes:
    """A process's grading threads in two lanes: ``workers`` for learners, the rest for
    regrades only, so a regrade never holds a thread a learner could use.

    A thread takes a lane's place only by claiming a row, and claims are made one at a time
    (``claiming``): a thread woken while another is between looking and claiming sees the
    places that one leaves free, so no wake-up is lost to a place held for a moment.
    """

    def __init__(self, learners: int, regrades: int) -> None:
        self._learners = learners
        self._free = {Lane.LEARNERS: learners, Lane.REGRADES: regrades}
        self.claiming = threading.Lock()
        self.regrades_freed_at = utcnow()
        """When a regrade's place was last given back here: at a regrade's release (its
        thread holds the place until then), so at a moment no hidden input can move."""

    def free(self) -> frozenset[Lane]:
        """The lanes a thread may claim from now (call it holding ``claiming``): learners'
        while one of their places is free; regrades while one of theirs is and no learner's
        grading runs here, since a regrade's trusted side (judging, storing) shares this
        process with the learners' requests."""
        lanes = set()
        if self._free[Lane.LEARNERS] > 0:
            lanes.add(Lane.LEARNERS)
        if self._free[Lane.REGRADES] > 0 and self._free[Lane.LEARNERS] == self._learners:
            lanes.add(Lane.REGRADES)
        return frozenset(lanes)

    def take(self, lane: Lane) -> None:
        self._free[lane] -= 1

    def release(self, lane: Lane) -> None:
        with self.claiming:
            self._free[lane] += 1
            if lane is Lane.REGRADES:
                self.regrades_freed_at = utcnow()


def worker_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


@dataclass
class GradingRuntime:
    """Settings, exercises, queue, engine, waiting requests and database sessions."""

    settings: Settings
    catalog: ExerciseCatalog
    queue: GradingQueue
    grade: GradeFunction
    canary: CanaryFunction
    try_inputs: TryFunction
    missing: MissingFunction
    waiters: ResultWaiters = field(default_factory=ResultWaiters)
    first_rungs: FirstRungs = field(default_factory=FirstRungs)
    """Each exercise's first rung of the release ladder (app.services.release)."""
    tries: TriesInFlight = field(init=False)
    sessions: sessionmaker[Session] = field(init=False)
    stopping: threading.Event = field(default_factory=threading.Event)
    database_outage: Backoff = field(init=False)
    lanes: GradingLanes = field(init=False)
    passback_slot: threading.BoundedSemaphore = field(
        default_factory=lambda: threading.BoundedSemaphore(1)
    )
    """One grade passback at a time in this process: it runs on a grading thread, and an LMS
    that does not answer holds it up to twice ``HTTP_TIMEOUT_S``
    (app/services/lti/connector.py)."""

    def __post_init__(self) -> None:
        self.sessions = get_sessionmaker(self.settings.database_url)
        self.database_outage = Backoff(max_s=self.settings.backoff_max_s)
        self.lanes = GradingLanes(self.settings.workers, self.settings.regrade_workers)
        self.tries = TriesInFlight.for_pool(self.settings.sandbox_pool_size)


def build_runtime(
    settings: Settings, *, engine: SandboxGrader | None = None, grade: GradeFunction | None = None
) -> GradingRuntime:
    """The runtime for ``settings``: ``engine`` defaults to a sandbox pool of this process
    (closed with it), ``grade`` to that engine."""
    engine = engine or SandboxGrader(settings.sandbox_pool_size, settings.sandbox_limits)
    return GradingRuntime(
        settings=settings,
        catalog=ExerciseCatalog(settings.exercises_dir, sandbox_limits=settings.sandbox_limits),
        queue=GradingQueue(
            settings.queue_url, settings.queue_name, backoff_max_s=settings.backoff_max_s
        ),
        grade=grade or engine,
        canary=engine.canary,
        try_inputs=engine.try_inputs,
        missing=engine.missing,
        first_rungs=FirstRungs(engine if settings.measure_first_rungs else None),
    )
