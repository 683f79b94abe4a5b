"""What a sandbox's processes use: CPU time, peak memory, and time spent queued for a CPU.

Measured by the zygote, for one sandbox at a time, and never by anything the sandbox says.
Where the zygote has a cgroup, its counters cover every process of the submission, ended ones
too: CPU time (user + system) and the peak of their memory together. Without one (not root),
the processes below the zygote are read from ``/proc`` while they run (their own CPU time and
that of the children they reaped; the largest peak resident set of any of them), and once
PID 1 is reaped its rusage says the same for the whole tree: the kernel reaps the namespace's
last processes into PID 1 as it ends.

The time a process was runnable but waited for a CPU (``run_delay`` in ``/proc/.../schedstat``)
is read from ``/proc`` either way, for the live threads only; the watch (``watch.py``) uses it
to tell a starved submission from one that waits.
"""

from __future__ import annotations

import contextlib
import os
import resource
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graders.sandbox.cgroups import SlotCgroup

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PROC = Path("/proc")


@dataclass(frozen=True)
class Usage:
    """CPU time (user + system) and peak memory of all of a submission's processes."""

    cpu_s: float
    memory_bytes: int

    def to_message(self) -> dict[str, Any]:
        return {"cpu_s": self.cpu_s, "memory_bytes": self.memory_bytes}

    @classmethod
    def from_message(cls, message: Any) -> Usage:
        """Read back what the zygote sent; raises ValueError if it is not a usage."""
        if not isinstance(message, dict):
            raise ValueError("a usage must be an object")
        cpu, memory = message.get("cpu_s"), message.get("memory_bytes")
        if (
            not (isinstance(cpu, int | float) and isinstance(memory, int))
            or isinstance(cpu, bool)
            or isinstance(memory, bool)
            or cpu < 0
            or memory < 0
        ):
            raise ValueError(f"not a usage: {message!r}"[:200])
        return cls(float(cpu), memory)


def processes_below_self() -> list[int]:
    """Every live process below this one (the zygote: its sandbox's), as ``/proc`` numbers
    them. A rootless zygote is PID 1 of a namespace of its own, where ``fork`` returns numbers
    that ``/proc`` (the host's) does not know; ``/proc/self/task/*/children`` lists its
    children in ``/proc``'s numbering. A process whose parent ended is adopted by the
    sandbox's PID 1, so the tree holds them all."""
    found: list[int] = []
    waiting = [PROC / "self"]
    while waiting:
        process = waiting.pop()
        with contextlib.suppress(OSError, ValueError):
            for task in list((process / "task").iterdir()):
                children = [int(pid) for pid in (task / "children").read_text().split()]
                found += children
                waiting += [PROC / str(pid) for pid in children]
    return found


def _stat_fields(pid: int) -> list[str]:
    return _stat_fields_of(PROC / str(pid))


def _stat_fields_of(process_or_task: Path) -> list[str]:
    """The fields of a ``stat`` file from the third (the state) on."""
    # The command name, in parentheses, may hold spaces and parentheses itself.
    text = (process_or_task / "stat").read_text()
    return text[text.rindex(")") + 2 :].split()


def processes_cpu_s(pids: list[int]) -> float:
    """CPU time of the processes and of the children they reaped.

    ``/proc/<pid>/stat`` counts it all (utime, stime, cutime and cstime, fields 14 to 17) but
    in clock ticks, rounded down: up to 10 ms short, too coarse to time a case that takes
    tens of milliseconds. The nanoseconds its live threads ran (``schedstat``, first field)
    are exact but forget threads that ended. Each process counts the larger of the two (with
    its reaped children's ticks added to the nanoseconds).
    """
    total = 0.0
    for pid in pids:
        with contextlib.suppress(OSError, ValueError, IndexError):
            own, reaped = _own_and_reaped_ticks(pid)
            threads_s = _threads_run_s(pid)
            total += max(own, threads_s * CLOCK_TICKS) / CLOCK_TICKS + reaped / CLOCK_TICKS
    return total


def _own_and_reaped_ticks(pid: int) -> tuple[int, int]:
    utime, stime, cutime, cstime = (int(field) for field in _stat_fields(pid)[11:15])
    return utime + stime, cutime + cstime


def _threads_run_s(pid: int) -> float:
    """The time the live threads of ``pid`` ran, from ``schedstat`` (0 where the kernel keeps
    none)."""
    run_ns = 0
    for task in (PROC / str(pid) / "task").iterdir():
        with contextlib.suppress(OSError, ValueError, IndexError):
            run_ns += int((task / "schedstat").read_text().split()[0])
    return run_ns / 1e9


CPUCLOCK_PROF = 0
"""The kind of a process's CPU clock that counts what RLIMIT_CPU counts: user + system time."""


def charged_cpu_s(pid: int) -> float:
    """The CPU time the kernel charged the process ``pid`` against its RLIMIT_CPU; 0 if it
    cannot be read (an ended process is readable only until it is reaped).

    Not the meter's count: the kernel adds a whole clock tick of user or system time to the
    process that is on the CPU when the tick comes, while the cgroup, rusage and ``/proc``
    count the exact time it ran. On a loaded host the two part by a tenth or more, either way
    (docs/sandbox.md).
    """
    clock = (~pid << 3) | CPUCLOCK_PROF  # the kernel's clock id of a process's CPU clock
    try:
        return time.clock_gettime(clock)
    except OSError:
        return 0.0


def processes_peak_bytes(pids: list[int]) -> int:
    """The largest peak resident set (``VmHWM``) of any of the processes."""
    peak = 0
    for pid in pids:
        with contextlib.suppress(OSError, ValueError):
            for line in (PROC / str(pid) / "status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    peak = max(peak, int(line.split()[1]) * 1024)
    return peak


def queued_s(pids: list[int]) -> float | None:
    """How long the live threads of the processes were runnable but waiting for a CPU
    (``/proc/<pid>/task/<tid>/schedstat``, second field), or None while one of them is
    runnable: the kernel adds a wait to ``run_delay`` only once the thread got a CPU, so a
    starved thread's figure lags behind, while a sleeping thread's is up to date. 0 where the
    kernel keeps no schedstat (no ``CONFIG_SCHED_INFO``)."""
    delay_ns = 0
    for pid in pids:
        with contextlib.suppress(OSError, ValueError, IndexError):
            for task in (PROC / str(pid) / "task").iterdir():
                with contextlib.suppress(OSError, ValueError, IndexError):
                    if _stat_fields_of(task)[0] == "R":
                        return None
                    delay_ns += int((task / "schedstat").read_text().split()[1])
    return delay_ns / 1e9


class Meter:
    """The usage of one sandbox after another, by the zygote's cgroup where it has one."""

    def __init__(
        self,
        cgroup: SlotCgroup | None,
        processes: Callable[[], list[int]] = processes_below_self,
    ) -> None:
        self.cgroup = cgroup
        self.processes = processes
        """The sandbox's live processes, as ``/proc`` numbers them: in the zygote, every process
        below it."""
        self.cpu_base: float | None = None
        """The cgroup's CPU time before the sandbox; None: read ``/proc`` instead."""
        self.peak_counted = False
        """Whether the cgroup counts this sandbox's peak memory (else ``/proc``, rusage)."""

    @property
    def complete_while_running(self) -> bool:
        """Whether ``now`` counts what ended processes used: only the cgroup's counters do.
        Without them the peak memory of a child that ended, or of PID 1 as it ends, is known
        only from PID 1's rusage once it is reaped."""
        return self.cpu_base is not None and self.peak_counted

    @property
    def parallel(self) -> int:
        """How many CPUs' worth of time the sandbox's processes can use per second: the
        cgroup's quota is one CPU; without it, every CPU of the host."""
        return 1 if self.cgroup is not None else os.cpu_count() or 1

    def begin(self) -> None:
        """Called before each sandbox is forked."""
        self.cpu_base, self.peak_counted = None, False
        if self.cgroup is not None:
            with contextlib.suppress(OSError, ValueError):
                self.cpu_base = self.cgroup.cpu_time_s()
            self.peak_counted = self.cgroup.reset_peak_memory()

    def cpu_s(self) -> float:
        """The CPU time the sandbox's processes used so far."""
        if self.cgroup is not None and self.cpu_base is not None:
            with contextlib.suppress(OSError, ValueError):
                return self.cgroup.cpu_time_s() - self.cpu_base
        return processes_cpu_s(self.processes())

    def now(self) -> Usage:
        """The usage so far, of a sandbox still running."""
        return Usage(self.cpu_s(), self._cgroup_peak() or processes_peak_bytes(self.processes()))

    def final(self, rusage: resource.struct_rusage) -> Usage:
        """The usage of a sandbox whose PID 1 was reaped with ``rusage``."""
        cpu = rusage.ru_utime + rusage.ru_stime
        if self.cgroup is not None and self.cpu_base is not None:
            with contextlib.suppress(OSError, ValueError):
                cpu = self.cgroup.cpu_time_s() - self.cpu_base
        return Usage(cpu, self._cgroup_peak() or rusage.ru_maxrss * 1024)

    def _cgroup_peak(self) -> int:
        if self.cgroup is None or not self.peak_counted:
            return 0
        with contextlib.suppress(OSError, ValueError):
            return self.cgroup.peak_memory_bytes()
        return 0
