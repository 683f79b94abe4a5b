"""The grading engine as the service uses it: one lazily started sandbox pool per process."""

from __future__ import annotations

import threading
from collections.abc import Callable

from app.core.config import Settings
from graders.api import (
    CanaryResult,
    CpuPriority,
    GradeReport,
    PreparedExercise,
    Sandbox,
    SandboxLimits,
    TryReport,
    canary,
    grade,
    try_inputs,
)

GradeFunction = Callable[[PreparedExercise, str, bool, CpuPriority], GradeReport]
"""``grade(prepared, code, public_only, priority)``; raises on an engine fault (never for the
learner's code, whose failures are verdicts in the report)."""

TryFunction = Callable[[PreparedExercise, str, dict[str, str]], TryReport]
"""``try_inputs(prepared, code, inputs)``: the learner's own inputs answered by their code and
the reference (``graders.try_inputs``); raises ``CustomInputRefused`` for inputs it does not
read, and on an engine fault."""

CanaryFunction = Callable[[], CanaryResult]
"""A tiny known grading through the sandbox, once what of its working folders vanished is
made again (``Sandbox.repair``); never raises (``graders.canary``)."""

MissingFunction = Callable[[], tuple[str, ...]]
"""The working folders of the process's sandbox that vanished (``Sandbox.missing``), each
made again before its next grading; empty when all are there, or no sandbox started."""


def background_priority(settings: Settings) -> CpuPriority:
    """How work nobody is waiting for (a regrade, a rediagnosis) shares the CPU."""
    return CpuPriority.BACKGROUND if settings.background_lowest_priority else CpuPriority.NORMAL


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

    def __call__(
        self,
        prepared: PreparedExercise,
        code: str,
        public_only: bool,
        priority: CpuPriority = CpuPriority.NORMAL,
    ) -> GradeReport:
        sandbox = self._sandbox or self.start()
        return grade(prepared, code, sandbox, public_only=public_only, priority=priority)

    def try_inputs(
        self, prepared: PreparedExercise, code: str, inputs: dict[str, str]
    ) -> TryReport:
        return try_inputs(prepared, code, inputs, self._sandbox or self.start())

    def canary(self) -> CanaryResult:
        sandbox = self._sandbox or self.start()
        sandbox.repair()
        return canary(sandbox)

    def missing(self) -> tuple[str, ...]:
        """Never starts the sandbox: a process that grades nothing has no folders to miss."""
        sandbox = self._sandbox
        return sandbox.missing() if sandbox is not None else ()

    def close(self) -> None:
        with self._lock:
            if self._sandbox is not None:
                self._sandbox.close()
                self._sandbox = None
