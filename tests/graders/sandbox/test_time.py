"""The time limit is CPU time; the wall clock is a backstop that tells waiting from starving.

A spinning submission is stopped by its CPU time, one that sleeps by the wall-clock backstop
(the learner's timeout), and an honest one the host starves of CPU is never judged a timeout:
it runs on and passes, or, starved past the ceiling, is the engine's fault.

Starving is made, not waited for: the submission is born on one CPU where many processes
spin at the same priority, each in a scheduling group of its own, which leave it a small
share for as long as the test wants; then it gets every CPU back.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import replace

import numpy as np
import pytest

from graders.api import PreparedExercise, Sandbox, SandboxLimits, Verdict, grade
from graders.errors import SandboxStarved
from graders.sandbox.exitcodes import EXIT_TIMEOUT, EXIT_WALL_LIMIT
from graders.sandbox.protocol import Ending, RunResult, Task
from tests.graders.helpers import gate_solution
from tests.graders.sandbox.processes import descendants

LIMITS = SandboxLimits(time_s=1.0, memory_mb=384)
ONE_CALL = [Task(("x",), (np.zeros(2),))]


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Sandbox]:
    with Sandbox(workers=1, limits=LIMITS) as pool:
        yield pool


def run(sandbox: Sandbox, body: str, limits: SandboxLimits = LIMITS) -> RunResult:
    """Run ``def f(x): <body>`` on one input."""
    code = "import os, time\nimport numpy as np\n\ndef f(x):\n"
    return sandbox.run(code + textwrap.indent(textwrap.dedent(body), "    "), "f", ONE_CALL, limits)


def test_a_spinning_submission_times_out_by_its_cpu_time(sandbox: Sandbox) -> None:
    result = run(sandbox, "while True:\n    pass\n")
    assert (result.ending, result.exit_code) == (Ending.TIMEOUT, EXIT_TIMEOUT)
    assert result.usage is not None
    assert LIMITS.time_s <= result.usage.cpu_s <= LIMITS.cpu_s + 0.1, result.usage


@pytest.mark.several_processes
def test_the_cpu_time_of_every_process_counts(sandbox: Sandbox) -> None:
    # The parent only waits: were its children's CPU time not counted, it would be waiting.
    result = run(
        sandbox,
        """
        children = [pid for pid in (os.fork(), os.fork()) if pid]
        if len(children) < 2:
            while True:
                pass
        for pid in children:
            os.waitpid(pid, 0)
    """,
    )
    assert (result.ending, result.exit_code) == (Ending.TIMEOUT, EXIT_TIMEOUT), result.message
    assert result.usage is not None and result.usage.cpu_s >= LIMITS.time_s


@pytest.mark.parametrize(
    "body",
    [
        "time.sleep(60)\n",
        # Blocked on a child that sleeps: neither process computes.
        pytest.param(
            "pid = os.fork()\nif pid == 0:\n    time.sleep(60)\nos.waitpid(pid, 0)\n",
            marks=pytest.mark.several_processes,
        ),
    ],
)
def test_a_waiting_submission_gets_the_learners_wall_clock_timeout(
    sandbox: Sandbox, body: str
) -> None:
    started = time.monotonic()
    result = run(sandbox, body)
    assert (result.ending, result.exit_code) == (Ending.WALL_LIMIT, EXIT_WALL_LIMIT)
    assert time.monotonic() - started >= LIMITS.wall_s  # not before the backstop
    assert result.usage is not None and result.usage.cpu_s < LIMITS.time_s


def test_the_report_says_the_code_waited(sandbox: Sandbox, gate: PreparedExercise) -> None:
    report = grade(
        gate, gate_solution() + "\nimport time\ntime.sleep(60)\n", sandbox, limits=LIMITS
    )
    assert report.verdict is Verdict.TIMEOUT
    assert report.message == (
        "wall-clock limit exceeded while waiting: after 3 s the code had "
        "spent most of that time sleeping or blocked, not computing (the "
        "time limit is 1 s of CPU time)"
    )


HOGS = 32
HOG = """
import os, sys, time
cpu, count, seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
os.sched_setaffinity(0, {cpu})
for _ in range(count - 1):
    if os.fork() == 0:
        break
os.setsid()  # a session, hence a scheduling autogroup, of its own: each weighs one process
end = time.monotonic() + seconds
print(flush=True)
while time.monotonic() < end:
    pass
"""


def set_cpus(zygote: int, cpus: set[int]) -> None:
    """The zygote's CPUs and its sandboxes', a spare's among them (rootless, the zygote is
    below a parent): again until no process appeared meanwhile, as a spare forked while the
    zygote's CPUs changed would keep the old ones."""
    done: set[int] = set()
    while (processes := {zygote, *descendants(zygote)}) != done:
        for pid in processes:
            with suppress(ProcessLookupError):
                os.sched_setaffinity(pid, cpus)
        done = processes


@contextmanager
def starved(pool: Sandbox, seconds: float) -> Iterator[None]:
    """For ``seconds``, the pool's sandboxes are born on one CPU where ``HOGS`` processes
    spin at the same priority (a share of a thirty-third); then they get every CPU back."""
    every = os.sched_getaffinity(0)
    cpu = max(every)
    zygote = pool.zygotes[0].process.pid
    set_cpus(zygote, {cpu})
    back = threading.Timer(seconds, set_cpus, (zygote, every))
    with subprocess.Popen(
        [sys.executable, "-c", HOG, str(cpu), str(HOGS), str(seconds)], stdout=subprocess.PIPE
    ) as hog:
        try:
            assert hog.stdout is not None and hog.stdout.readline() == b"\n"  # they spin
            back.start()
            yield
        finally:
            back.cancel()
            for pid in (*descendants(hog.pid), hog.pid):
                with suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            set_cpus(zygote, every)


def honest(cpu_s: float) -> str:
    """The reference solution, and honest work of about ``cpu_s`` of CPU time at import."""
    return (
        gate_solution()
        + f"""
import time
_end = time.process_time() + {cpu_s}
while time.process_time() < _end:
    pass
"""
    )


@pytest.mark.slow
def test_a_starved_honest_submission_is_not_judged_a_timeout(gate: PreparedExercise) -> None:
    # It gets about 0.1 s of CPU time by the backstop, where wall-clock time alone would have
    # stopped it, and 0.14 s by the end of its starving: the rest afterwards.
    with Sandbox(workers=1, limits=LIMITS) as pool, starved(pool, LIMITS.wall_s + 1.5):
        started = time.monotonic()
        report = grade(gate, honest(0.2), pool, limits=LIMITS)
        elapsed = time.monotonic() - started
    assert report.verdict is Verdict.PASSED, report.to_dict()
    assert elapsed > LIMITS.wall_s  # it really was starved past the backstop
    assert report.cost is not None and 200 <= report.cost.cpu_ms < LIMITS.time_s * 1000


@pytest.mark.slow
def test_a_submission_starved_past_the_ceiling_is_the_engines_fault(gate: PreparedExercise) -> None:
    limits = replace(LIMITS, time_s=0.5)  # the backstop at 2 s, the ceiling at 6 s
    with Sandbox(workers=1, limits=limits) as pool:
        zygote = pool.zygotes[0]
        with (
            starved(pool, limits.starved_wall_s + 3),
            pytest.raises(SandboxStarved, match="the host is too busy"),
        ):
            grade(gate, honest(0.4), pool, limits=limits)  # it gets about 0.2 s by then
        # Not the zygote's fault either: it stays, and grades the next one.
        assert pool.zygotes[0] is zygote
        assert grade(gate, gate_solution(), pool, limits=LIMITS).verdict is Verdict.PASSED
