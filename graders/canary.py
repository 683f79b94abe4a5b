"""A canary grading: the cheapest proof that the sandbox can grade right now."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from graders.errors import SandboxError
from graders.sandbox.protocol import Ending, Task
from graders.sandbox.runner import Sandbox

CANARY_CODE = "def canary(x):\n    return x + 1\n"
CANARY_TASKS = (Task(("x",), (np.arange(3.0),)),)


@dataclass(frozen=True)
class CanaryResult:
    ok: bool
    seconds: float
    message: str = ""
    """Why the canary failed (empty when ``ok``)."""


def canary(sandbox: Sandbox) -> CanaryResult:
    """Run a tiny known submission through ``sandbox`` and check its answer; never raises.

    It waits for a free slot like any grading, so call it where a busy pool may delay it.
    """
    started = time.perf_counter()
    try:
        run = sandbox.run(CANARY_CODE, "canary", CANARY_TASKS)
    except SandboxError as exc:
        return CanaryResult(False, time.perf_counter() - started, str(exc))
    seconds = time.perf_counter() - started
    outcome = run.outcomes.get(0)
    if run.ending is not Ending.COMPLETED or outcome is None or not outcome.ok:
        return CanaryResult(
            False, seconds, f"the canary did not complete: {run.ending.value} {run.message}".strip()
        )
    if not np.array_equal(outcome.value, [1.0, 2.0, 3.0]):
        return CanaryResult(False, seconds, "the canary returned a wrong value")
    return CanaryResult(True, seconds)
