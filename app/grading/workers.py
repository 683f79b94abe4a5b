"""Starting and stopping a process's background work.

Every process (web-only ones too) re-sends left-behind submissions at start-up and
periodically; a grading process also warms the sandbox and the exercises, beats its heart
and consumes the queue with :func:`app.grading.lifecycle.work`.
"""

from __future__ import annotations

import functools
import logging
import threading
from dataclasses import dataclass, field

from app.grading import lifecycle
from app.grading.heartbeat import HeartbeatThread
from app.grading.recovery import RecoveryThread, recover
from app.runtime.context import GradingRuntime
from app.runtime.engine import SandboxGrader
from app.services import similarity_jobs
from app.services.lti import passback
from graders.api import ExerciseError

logger = logging.getLogger(__name__)


@dataclass
class BackgroundWork:
    """``grading_threads`` 0: recovery only (a web-only process)."""

    runtime: GradingRuntime
    grading_threads: int
    embedded: bool = True
    recovery: RecoveryThread | None = field(default=None, init=False)
    heartbeat: HeartbeatThread | None = field(default=None, init=False)

    def start(self) -> None:
        """Raises ``QueueUnavailable`` with a clear message when the queue cannot be reached."""
        runtime = self.runtime
        runtime.queue.check()
        if self.grading_threads:
            if isinstance(runtime.grade, SandboxGrader):
                runtime.grade.start()
            if runtime.settings.prepare_at_start:
                threading.Thread(target=self._warm, name="numjudge-warm", daemon=True).start()
            self.heartbeat = HeartbeatThread(runtime, self.grading_threads)
            self.heartbeat.beat_now()
        recover(runtime=runtime, startup=True)
        if self.grading_threads and self.embedded:
            runtime.queue.start_embedded(
                self.grading_threads, self.handler, self.report_handler, self.passback_handler
            )
        self.recovery = RecoveryThread(runtime)
        self.recovery.start()
        if self.heartbeat is not None:
            self.heartbeat.start()

    @property
    def handler(self) -> functools.partial[None]:
        """The queue's message handler: the grading life cycle on this runtime."""
        return functools.partial(lifecycle.work, self.runtime)

    @property
    def report_handler(self) -> functools.partial[None]:
        """The queue's similarity report handler (low priority: app.runtime.queue)."""
        return functools.partial(similarity_jobs.run, self.runtime)

    @property
    def passback_handler(self) -> functools.partial[None]:
        """The queue's grade passback handler (low priority, as reports)."""
        return functools.partial(passback.run, self.runtime)

    def _warm(self) -> None:
        """Prepare every exercise once so the first submission of each is fast (until the
        process stops: preparing them all takes seconds of CPU)."""
        for exercise_id in self.runtime.catalog.ids():
            if self.runtime.stopping.is_set():
                return
            try:
                self.runtime.catalog.prepared(exercise_id)
            except ExerciseError as exc:
                logger.warning(
                    "exercise.broken", extra={"exercise": exercise_id, "error": str(exc)}
                )

    def stop(self) -> None:
        self.runtime.stopping.set()
        if self.recovery is not None:
            self.recovery.stop()
        if self.heartbeat is not None:
            self.heartbeat.stop()
        self.runtime.queue.stop()
        grade = self.runtime.grade
        if isinstance(grade, SandboxGrader):
            grade.close()
