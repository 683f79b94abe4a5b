"""app/core/background.py: the work runs in another process, at the lowest CPU priority, under
a CPU-time limit that stops work that would not end."""

from __future__ import annotations

import math
import os
import resource

import pytest

from app.core.background import OutOfCpuTime, run_in_background


@pytest.mark.slow
def test_the_work_runs_in_a_child_below_every_other_process() -> None:
    # The work crosses pickled, by name: the standard library's functions, as the test
    # modules are not importable by name in the child.
    assert run_in_background(30, os.getpid) != os.getpid()
    assert run_in_background(30, os.getpriority, os.PRIO_PROCESS, 0) == 19
    assert run_in_background(30, os.sched_getscheduler, 0) == os.SCHED_IDLE
    assert run_in_background(30, resource.getrlimit, resource.RLIMIT_CPU) == (30, 31)


@pytest.mark.slow
def test_work_past_its_cpu_time_is_stopped() -> None:
    # A factorial of a billion takes minutes of CPU.
    with pytest.raises(OutOfCpuTime, match="after 1 s of CPU time"):
        run_in_background(1, math.factorial, 10**9)


@pytest.mark.slow
def test_without_the_lowest_priority_the_work_keeps_this_processs_and_its_cpu_limit() -> None:
    # NUMJUDGE_BACKGROUND_LOWEST_PRIORITY=false: a host kept busy still finishes the work.
    kept = {"lowest_priority": False}
    assert run_in_background(30, os.getpriority, os.PRIO_PROCESS, 0, **kept) == os.getpriority(
        os.PRIO_PROCESS, 0
    )
    assert run_in_background(30, os.sched_getscheduler, 0, **kept) == os.sched_getscheduler(0)
    assert run_in_background(30, resource.getrlimit, resource.RLIMIT_CPU, **kept) == (30, 31)
    with pytest.raises(OutOfCpuTime, match="after 1 s of CPU time"):
        run_in_background(1, math.factorial, 10**9, **kept)
