"""What a run reports it used: CPU time and peak memory of all the submission's processes,
ended ones too, measured by the zygote (the cgroup's counters as root, ``/proc`` and rusage
without one)."""

from __future__ import annotations

import textwrap
import time
from collections.abc import Iterator

import numpy as np
import pytest

from graders.api import Sandbox, SandboxLimits
from graders.sandbox.protocol import Ending, RunResult, Task
from graders.sandbox.usage import Usage

LIMITS = SandboxLimits(time_s=5.0, memory_mb=512)
MB = 1024 * 1024


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Sandbox]:
    with Sandbox(workers=1, limits=LIMITS) as pool:
        yield pool


def run(sandbox: Sandbox, body: str) -> RunResult:
    code = "import os, time\nimport numpy as np\n\ndef f(x):\n"
    code += textwrap.indent(textwrap.dedent(body), "    ")
    result = sandbox.run(code, "f", [Task(("x",), (np.zeros(2),))], LIMITS)
    assert result.ending is Ending.COMPLETED, (result.ending, result.message, result.load_error)
    return result


def usage_of(result: RunResult) -> Usage:
    assert result.usage is not None
    return result.usage


def test_a_completed_run_reports_its_usage(sandbox: Sandbox) -> None:
    usage = usage_of(run(sandbox, "return x\n"))
    assert 0 < usage.cpu_s < 1
    assert usage.memory_bytes > 0


@pytest.mark.several_processes
def test_the_cpu_time_of_a_child_that_ended_counts(sandbox: Sandbox) -> None:
    usage = usage_of(
        run(
            sandbox,
            """
        pid = os.fork()
        if pid == 0:
            end = time.process_time() + 0.4
            while time.process_time() < end:
                pass
            os._exit(0)
        os.waitpid(pid, 0)
        return x
    """,
        )
    )
    assert usage.cpu_s >= 0.4


@pytest.mark.several_processes
def test_the_memory_of_a_child_counts(sandbox: Sandbox) -> None:
    usage = usage_of(
        run(
            sandbox,
            """
        pid = os.fork()
        if pid == 0:
            block = np.ones(150 * 1024 * 1024 // 8)
            os._exit(0)
        os.waitpid(pid, 0)
        return x
    """,
        )
    )
    assert usage.memory_bytes >= 150 * MB


def test_each_run_is_measured_afresh(sandbox: Sandbox) -> None:
    run(sandbox, "block = np.ones(200 * 1024 * 1024 // 8)\nreturn x\n")
    assert usage_of(run(sandbox, "return x\n")).memory_bytes < 100 * MB


def test_asked_after_its_end_the_zygote_tells_the_last_runs_usage(sandbox: Sandbox) -> None:
    run(sandbox, "block = np.ones(200 * 1024 * 1024 // 8)\nreturn x\n")
    zygote = sandbox.zygotes[0]
    assert zygote.settle()  # the end is collected: the zygote is idle
    last = zygote.usage_so_far(time.monotonic() + 10)
    assert last is not None and last.memory_bytes >= 200 * MB
    again = run(sandbox, "return x + 1\n")  # and it still serves in step
    assert again.outcomes[0].value.tolist() == [1.0, 1.0]
