"""Each exercise's first rung of the release ladder, measured on this machine from the
exercise's own code (docs/security.md, "Whole-submission time: the release ladder").

A result is released at the first boundary of a ladder at or after its grading ended
(app.services.release). The ladder's first rung is chosen per exercise version, once per
process, before any learner's code of that version is graded here: the time from acceptance to
a stored result that its reference and its known mistakes take (their gradings through this
process's sandbox, the fastest of a few runs each, the slowest file, with a margin for the
service's own part), rounded up to one of a fixed set of rungs. A submission as fast as the
exercise's own code, right or wrong, is then released as soon as it is graded.

What the rung depends on: the exercise's files and this machine, never a learner's run (it is
fixed before the first learner's grading of the version here) and never a hidden output (the
gradings compare, but only their duration is kept). It is one of :data:`FIRST_RUNGS`, so an
exercise's rung tells at most ``log2(len(FIRST_RUNGS))`` bits per version and process, about
how long the exercise's own code takes on its cases (which a learner could read off a copy of
the reference anyway) and how busy the host was meanwhile.
"""

from __future__ import annotations

import logging
import threading
import time
from datetime import timedelta

from app.runtime.engine import GradeFunction
from graders.api import CpuPriority, PreparedExercise

logger = logging.getLogger(__name__)

FIRST_STEP = timedelta(milliseconds=100)
"""The first rung of an exercise not measured here (or measured slower than every rung): the
longest an honest fast grading waits for its result beyond the grading itself."""

FIRST_RUNGS = tuple(FIRST_STEP / 2 ** (quarters / 4) for quarters in range(16))
"""The first rungs an exercise can have: 100 ms down to 7.4 ms in quarter-octaves. A fixed set
of 16, so which one an exercise has tells at most 4 bits about it, once per version. Quarter
octaves, not halves: a fast exercise's honest submissions wait from the end of their grading
to the rung above it, up to 19 % of the rung rather than 41 %."""

RUNS_PER_FILE = 3
"""Gradings of each measured file: the fastest is kept, so a moment of load does not raise it."""

MISTAKES_MEASURED = 3
"""Known mistakes graded besides the reference: wrong answers take a different path (a
diagnosis, a failed case's message), and a few show it."""

MARGIN = 1.25
"""How much slower than the exercise's own code an ordinary submission may be and still be
released on the first rung."""

SERVICE_ALLOWANCE = timedelta(milliseconds=4)
"""The service's part between acceptance and a stored result (the row's insert, the queue's
hand-off, the claim, the store), measured under bench/service.py (docs/performance.md)."""


def first_rung(measured: timedelta) -> timedelta:
    """The smallest of :data:`FIRST_RUNGS` at or above ``measured``; :data:`FIRST_STEP` if
    none is."""
    return min((rung for rung in FIRST_RUNGS if rung >= measured), default=FIRST_STEP)


class FirstRungs:
    """Each exercise version's first rung in this process, measured through ``grade`` the
    first time it is asked for (a thread asking meanwhile waits for it); without ``grade``
    (a runtime that grades with a stand-in) every exercise has :data:`FIRST_STEP`."""

    def __init__(self, grade: GradeFunction | None = None) -> None:
        self._grade = grade
        self._rungs: dict[str, timedelta] = {}
        self._measuring = threading.Lock()

    def known(self, version: str) -> timedelta:
        """The version's rung if measured here, else :data:`FIRST_STEP`."""
        return self._rungs.get(version, FIRST_STEP)

    def measure(self, prepared: PreparedExercise) -> timedelta:
        """The version's rung, measured now if it was not yet."""
        version = prepared.exercise.version
        if self._grade is None or version in self._rungs:
            return self.known(version)
        with self._measuring:
            if version not in self._rungs:
                self._rungs[version] = first_rung(self._slowest_own(prepared, self._grade))
                logger.info(
                    "exercise.first_rung",
                    extra={
                        "exercise": prepared.exercise.id,
                        "first_rung_ms": self._rungs[version] / timedelta(milliseconds=1),
                    },
                )
            return self._rungs[version]

    @staticmethod
    def _slowest_own(prepared: PreparedExercise, grade: GradeFunction) -> timedelta:
        """The slowest of the exercise's own files (its reference and first known mistakes),
        each the fastest of its gradings, with the margin and the service's part."""
        exercise = prepared.exercise
        files = [exercise.path / "solution.py", *(m.path for m in exercise.mistakes)]
        slowest = 0.0
        for file in files[: 1 + MISTAKES_MEASURED]:
            code = file.read_text(encoding="utf-8")
            fastest = min(_graded_in(grade, prepared, code) for _ in range(RUNS_PER_FILE))
            slowest = max(slowest, fastest)
        return timedelta(seconds=slowest) * MARGIN + SERVICE_ALLOWANCE


def _graded_in(grade: GradeFunction, prepared: PreparedExercise, code: str) -> float:
    """Seconds one grading of ``code`` takes, as a learner's submission is graded."""
    began = time.perf_counter()
    grade(prepared, code, False, CpuPriority.NORMAL)
    return time.perf_counter() - began
