"""The runtime: what one process needs to accept and grade submissions, built in one place
(``build_runtime``) for ``create_app`` and for ``numjudge worker``."""

from __future__ import annotations

import os
import socket
import threading
from dataclasses import dataclass, field

from sqlalchemy.orm import Session, sessionmaker

from app.core.backoff import Backoff
from app.core.config import Settings
from app.core.db import get_sessionmaker
from app.queue import GradingQueue
from app.services.engine import CanaryFunction, GradeFunction, SandboxGrader
from app.services.waiters import ResultWaiters
from graders import ExerciseCatalog


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
    waiters: ResultWaiters = field(default_factory=ResultWaiters)
    sessions: sessionmaker[Session] = field(init=False)
    stopping: threading.Event = field(default_factory=threading.Event)
    database_outage: Backoff = field(init=False)

    def __post_init__(self) -> None:
        self.sessions = get_sessionmaker(self.settings.database_url)
        self.database_outage = Backoff(max_s=self.settings.backoff_max_s)


def build_runtime(settings: Settings, *, engine: SandboxGrader | None = None,
                  grade: GradeFunction | None = None) -> GradingRuntime:
    """The runtime for ``settings``: ``engine`` defaults to a sandbox pool of this process
    (closed with it), ``grade`` to that engine."""
    engine = engine or SandboxGrader(settings.sandbox_pool_size, settings.sandbox_limits)
    return GradingRuntime(
        settings=settings, catalog=ExerciseCatalog(settings.exercises_dir),
        queue=GradingQueue(settings.queue_url, settings.queue_name,
                           backoff_max_s=settings.backoff_max_s),
        grade=grade or engine, canary=engine.canary)
