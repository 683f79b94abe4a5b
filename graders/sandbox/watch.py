"""How long a sandbox may run: the CPU time of its processes, with the wall clock as a backstop.

The time limit counts the CPU time (user + system) of all the submission's processes together
(``usage.py``): a host busy with other work slows a submission down but does not bring it
nearer its limit. The zygote sleeps on the sandbox's pidfd until the limit could at the
earliest be reached (the CPU time left, over the CPUs its processes may use at once), looks at
the CPU time, and sleeps again for what is left: a submission that ends early is never looked
at, and one that spins is stopped within a few milliseconds of its limit.

The wall clock is only a backstop, for code that does not compute. From ``limits.wall_s`` on,
the zygote asks where the time went: into CPU time, or into waiting for a CPU while runnable
(the live threads' ``run_delay``), or neither. A sandbox with a runnable thread is not
waiting at that moment: it is asked again a little later.

- Mostly neither (sleeping, blocked on a lock, a pipe, a child that waits): the learner's
  timeout, ``EXIT_WALL_LIMIT``.
- Mostly computing or queued for a CPU: the host's doing. The submission runs on, still
  bounded by its CPU time, up to ``limits.starved_wall_s``; a submission starved that long is
  given up as the engine's fault, ``EXIT_STARVED``, which the service grades again later:
  never a timeout.

A sandbox stopped at a limit is not waited for: killed processes that the host starves of
CPU take as long to die as to run, and how it ended is known already.
"""

from __future__ import annotations

import os
import select
import signal
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from graders.sandbox.exitcodes import (
    EXIT_CODE_CLAMP,
    EXIT_MEMORY_LIMIT,
    EXIT_SIGNAL_BASE,
    EXIT_STARVED,
    EXIT_TIMEOUT,
    EXIT_WALL_LIMIT,
)
from graders.sandbox.limits import SandboxLimits
from graders.sandbox.usage import Meter, Usage, charged_cpu_s, queued_s

MIN_LOOK_S = 0.005
"""The shortest sleep between looks: near its limit a spinning sandbox is looked at this often."""
LOOK_PAST_BACKSTOP_S = 0.25
WAITING_SHARE = 0.5
"""Past the backstop, a sandbox that spent at least this share of the wall-clock time neither
on a CPU nor queued for one is waiting, not starved."""


def overrun(
    limits: SandboxLimits, cpu_s: float, wall_s: float, queued: Callable[[], float | None]
) -> int | None:
    """The exit code of the limit a sandbox ran over, or None while it may go on.

    ``queued`` (the time its live threads were runnable but queued for a CPU, None while one
    is runnable) is asked for only past the backstop: it reads every thread's schedstat.
    """
    if cpu_s >= limits.time_s:
        return EXIT_TIMEOUT
    if wall_s < limits.wall_s:
        return None
    delay = queued()
    if delay is not None and wall_s - cpu_s - delay >= WAITING_SHARE * wall_s:
        return EXIT_WALL_LIMIT
    if wall_s >= limits.starved_wall_s:
        return EXIT_STARVED
    return None


def next_look(limits: SandboxLimits, cpu_s: float, wall_s: float, parallel: int) -> float:
    """Seconds until the sandbox could at the earliest have run over a limit."""
    soonest = (limits.time_s - cpu_s) / parallel
    if wall_s < limits.wall_s:
        soonest = min(soonest, limits.wall_s - wall_s)
    else:
        soonest = min(soonest, LOOK_PAST_BACKSTOP_S, limits.starved_wall_s - wall_s)
    return max(soonest, MIN_LOOK_S)


@dataclass
class CpuCeiling:
    """A lower CPU-time limit the trusted side may set while a sandbox runs: a case with its
    own time limit (``@case(time_s=...)``) is stopped at the sandbox's CPU time when it was
    sent plus that limit. ``None``: only ``limits.time_s``."""

    stop_at_s: float | None = None

    def applied(self, limits: SandboxLimits) -> SandboxLimits:
        if self.stop_at_s is None or self.stop_at_s >= limits.time_s:
            return limits
        return replace(limits, time_s=self.stop_at_s)


@dataclass(frozen=True)
class Watched:
    """How a sandbox ended: the exit code that says so, and its usage."""

    code: int
    usage: Usage
    killed: bool
    """Stopped at a limit and not yet reaped: the caller reaps it once it has said so."""


def watch(
    pid: int,
    limits: SandboxLimits,
    meter: Meter,
    queries: socket.socket | None,
    answer: Callable[[], bool],
    out_of_memory_fd: int | None = None,
    ceiling: CpuCeiling | None = None,
) -> Watched:
    """Wait for the sandbox's PID 1 to end, or kill it at a limit.

    While it runs, a message on ``queries`` (the zygote's control socket) is handled by
    ``answer``, which returns False once the socket is closed and may lower ``ceiling``.
    ``out_of_memory_fd`` becomes readable when the sandbox's cgroup ran out of memory: the
    whole sandbox ends there.
    """
    ceiling = ceiling or CpuCeiling()
    started = time.monotonic()
    pidfd = os.pidfd_open(pid)
    try:
        while True:
            effective = ceiling.applied(limits)
            cpu, wall = meter.cpu_s(), time.monotonic() - started
            stopped_for = overrun(effective, cpu, wall, lambda: queued_s(meter.processes()))
            # Judged on what ``/proc`` showed: a PID 1 that ended meanwhile, and looked as if
            # it waited, is not stopped for it.
            if stopped_for is not None and not select.select([pidfd], [], [], 0)[0]:
                return kill(pid, stopped_for, meter)
            if stopped_for is not None:
                break
            waiting = [pidfd]
            waiting += [] if queries is None else [queries.fileno()]
            waiting += [] if out_of_memory_fd is None else [out_of_memory_fd]
            ready, _, _ = select.select(
                waiting, [], [], next_look(effective, cpu, wall, meter.parallel)
            )
            if pidfd in ready:
                break
            if out_of_memory_fd in ready:
                return kill(pid, EXIT_MEMORY_LIMIT, meter)
            if queries is not None and queries.fileno() in ready and not answer():
                queries = None
    finally:
        os.close(pidfd)
    return reap(pid, limits, meter, ceiling)


def reap(pid: int, limits: SandboxLimits, meter: Meter, ceiling: CpuCeiling) -> Watched:
    """Wait for the sandbox's PID 1, which was not stopped at a limit by the zygote, to end,
    and reap it: its exit code, or the signal that ended it.

    A signal is the learner's timeout once the CPU time was used up, by the meter's count or
    by the kernel's: RLIMIT_CPU's SIGKILL comes when the kernel's count reaches
    ``limits.cpu_s``, which on a loaded host may be before the meter's reached ``time_s``
    (``charged_cpu_s``). Under both, it is the signal's: the submission's own doing.
    """
    os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)
    charged = charged_cpu_s(pid)  # before it is reaped: then its CPU clock is gone
    _, status, rusage = os.wait4(pid, 0)
    usage = meter.final(rusage)
    if os.WIFSIGNALED(status):
        code = (
            EXIT_TIMEOUT
            if usage.cpu_s >= ceiling.applied(limits).time_s or charged >= limits.cpu_s
            else EXIT_SIGNAL_BASE + os.WTERMSIG(status)
        )
        return Watched(code, usage, killed=False)
    return Watched(min(os.WEXITSTATUS(status), EXIT_CODE_CLAMP), usage, killed=False)


def kill(pid: int, code: int, meter: Meter) -> Watched:
    """Stop the sandbox at a limit, its usage read first: without a cgroup it is read from
    ``/proc``, where the processes of a namespace whose PID 1 was killed are dying or gone."""
    usage = meter.now()
    os.kill(pid, signal.SIGKILL)  # PID 1: the kernel kills its whole namespace
    return Watched(code, usage, killed=True)
