"""Work run in a child process of its own, below every other process for the CPU and under a
CPU-time limit: work whose cost someone else chooses (a similarity report, whose answers
learners write) cannot take the CPU from grading or the pages.

A thread would not do: lowering a thread's priority leaves it holding the interpreter's lock
as long as before, and the process's other threads wait for it. The child is started fresh
(``spawn``: forking a process that runs threads is unsafe), lowers its own priority and sets
``RLIMIT_CPU``, which the kernel enforces by killing it; the work inside keeps its own,
gentler budget below that (``app.services.similarity.CpuBudget``).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import resource
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

Result = TypeVar("Result")


class OutOfCpuTime(Exception):
    """The child used up its CPU-time limit (or died otherwise) before it answered."""


def _lower_priority(cpu_limit_s: int) -> None:
    """Run in the child before the work: the lowest nice and, where allowed, the idle policy
    (it runs only when nothing else wants the CPU); then the hard limit on its CPU time."""
    os.setpriority(os.PRIO_PROCESS, 0, 19)
    with contextlib.suppress(OSError):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    _limit_cpu(cpu_limit_s)


def _limit_cpu(cpu_limit_s: int) -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_limit_s, cpu_limit_s + 1))


def run_in_background(
    cpu_limit_s: float, work: Callable[..., Result], *args: Any, lowest_priority: bool = True
) -> Result:
    """``work(*args)`` in a fresh child process at background priority (``lowest_priority``
    off: at this process's own), killed after ``cpu_limit_s`` seconds of CPU time
    (:class:`OutOfCpuTime`). ``work``, its arguments and its result cross to the child and
    back pickled: module-level functions and data only."""
    with ProcessPoolExecutor(
        max_workers=1,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_lower_priority if lowest_priority else _limit_cpu,
        initargs=(max(1, round(cpu_limit_s)),),
    ) as pool:
        try:
            return pool.submit(work, *args).result()
        except BrokenProcessPool as exc:
            raise OutOfCpuTime(
                f"the background process was stopped after {cpu_limit_s:g} s of CPU time"
            ) from exc
