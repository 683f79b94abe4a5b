"""The zygote's side of a sandbox, in this process: a slot's cgroup, the meter that reads it, and
the watch that stops a process at its limits, around a plain forked child instead of a sandbox.

The zygote runs them in a process of its own, where coverage does not follow; these tests run
the same code on a child that does what a submission would (compute, allocate, sleep).
Without root there is no cgroup: those tests skip, and the watch is tested on ``/proc``.
"""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from graders.sandbox.cgroups import CgroupVersion, SlotCgroup, remove_stale
from graders.sandbox.exitcodes import (
    EXIT_MEMORY_LIMIT,
    EXIT_SIGNAL_BASE,
    EXIT_TIMEOUT,
    EXIT_WALL_LIMIT,
)
from graders.sandbox.isolation import set_resource_limits
from graders.sandbox.limits import CpuPriority, SandboxLimits
from graders.sandbox.state import own_prefix
from graders.sandbox.usage import Meter, Usage
from graders.sandbox.watch import CpuCeiling, Watched, reap, watch

MB = 1024 * 1024
needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="only root can make a cgroup")


def spin(seconds: float) -> None:
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def allocate(megabytes: int) -> bytearray:
    block = bytearray(megabytes * MB)
    block[::4096] = b"\x01" * len(block[::4096])  # every page touched, so resident
    return block


def start(body: Callable[[], None], cgroup: SlotCgroup | None = None) -> int:
    """Fork a child that runs ``body`` once it was moved into ``cgroup``."""
    go_read, go_write = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(go_write)
            os.read(go_read, 1)
            body()
        finally:
            os._exit(0)
    os.close(go_read)
    if cgroup is not None:
        cgroup.add(pid)
    os.write(go_write, b"1")
    os.close(go_write)
    return pid


def watched(
    body: Callable[[], None], limits: SandboxLimits, cgroup: SlotCgroup | None = None
) -> Watched:
    pids: list[int] = []
    # Only the child: this process has others (a session's sandbox pool), which the zygote has
    # not, with CPU and queueing times of their own.
    meter = Meter(cgroup, processes=lambda: pids)
    meter.begin()
    if cgroup is not None:
        cgroup.set_limits(limits)
        cgroup.forget_out_of_memory_events()
    pid = start(body, cgroup)
    pids.append(pid)
    out_of_memory_fd = None if cgroup is None else cgroup.out_of_memory_fd
    result = watch(pid, limits, meter, None, lambda: True, out_of_memory_fd)
    if result.killed:
        os.waitpid(pid, 0)
    return result


@pytest.fixture
def cgroup() -> Iterator[SlotCgroup]:
    # Not named like a zygote's: a zygote starting meanwhile removes stale ones of those.
    slot = SlotCgroup.create(f"numjudge-test-{uuid.uuid4().hex[:12]}")
    try:
        yield slot
    finally:
        slot.remove()


@needs_root
def test_the_cgroup_counts_the_cpu_time_and_memory_of_its_processes(cgroup: SlotCgroup) -> None:
    def body() -> None:
        allocate(64)
        spin(0.3)

    result = watched(body, SandboxLimits(time_s=5.0, memory_mb=256), cgroup)
    assert (result.code, result.killed) == (0, False)
    assert 0.3 <= result.usage.cpu_s < 5.0
    assert result.usage.memory_bytes >= 64 * MB


@needs_root
def test_each_sandbox_of_a_cgroup_is_counted_afresh_through_its_kept_counter_files() -> None:
    # The counters are read through descriptors opened once (one ``pread`` per reading): each
    # reading must be the kernel's value now, and a reset must reach the next sandbox. Its own
    # cgroup, not the fixture's: it checks what ``remove`` closes.
    cgroup = SlotCgroup.create(f"numjudge-test-{uuid.uuid4().hex[:12]}")

    def big() -> None:
        allocate(96)
        spin(0.3)

    def small() -> None:
        allocate(8)
        spin(0.1)

    try:
        first = watched(big, SandboxLimits(time_s=5.0, memory_mb=256), cgroup)
        kept = dict(cgroup.counter_fds)
        second = watched(small, SandboxLimits(time_s=5.0, memory_mb=256), cgroup)
    finally:
        cgroup.remove()
    assert kept, "the counters are read through kept descriptors"
    assert cgroup.counter_fds == kept, "opened once, not per sandbox"
    assert first.usage.cpu_s >= 0.3
    assert 0.1 <= second.usage.cpu_s < first.usage.cpu_s  # its own, not the two together
    assert first.usage.memory_bytes >= 96 * MB
    assert second.usage.memory_bytes < 64 * MB  # the peak was reset before it
    for fd in kept.values():
        with pytest.raises(OSError):
            os.fstat(fd)


@pytest.mark.slow
@needs_root
def test_a_process_over_the_cgroups_memory_ends_the_watch_as_a_memory_limit(
    cgroup: SlotCgroup,
) -> None:
    def body() -> None:
        allocate(512)
        time.sleep(30)

    kills_before = cgroup.out_of_memory_kills()
    result = watched(body, SandboxLimits(time_s=5.0, memory_mb=128), cgroup)
    if cgroup.version is CgroupVersion.V1:
        # Stopped on the kernel's notice, which comes before its kill is counted.
        assert (result.code, result.killed) == (EXIT_MEMORY_LIMIT, True)
    else:  # memory.oom.group: the kernel killed it, the zygote reads the count
        assert result.code == EXIT_SIGNAL_BASE + signal.SIGKILL
        assert cgroup.out_of_memory_kills() > kills_before
    assert result.usage.memory_bytes <= 128 * MB


@needs_root
def test_the_limits_are_written_to_the_cgroup_only_when_they_change(cgroup: SlotCgroup) -> None:
    memory = cgroup.folder("memory")
    limit_file = memory / (
        "memory.max" if cgroup.version is CgroupVersion.V2 else "memory.limit_in_bytes"
    )
    cgroup.set_limits(SandboxLimits(memory_mb=200, max_processes=7))
    assert int(limit_file.read_text()) == 200 * MB
    assert int((cgroup.folder("pids") / "pids.max").read_text()) == 7
    limit_file.write_text(str(150 * MB))  # written behind its back: not looked at again
    cgroup.set_limits(SandboxLimits(memory_mb=200, max_processes=7))
    assert int(limit_file.read_text()) == 150 * MB
    for memory_mb in (300, 100):  # raised, then lowered: v1's two limits written in order
        cgroup.set_limits(SandboxLimits(memory_mb=memory_mb, max_processes=7))
        assert int(limit_file.read_text()) == memory_mb * MB


@needs_root
def test_a_background_cgroup_gets_the_smallest_cpu_weight(cgroup: SlotCgroup) -> None:
    weight_file, weights = (
        ("cpu.weight", ("100", "1"))
        if cgroup.version is CgroupVersion.V2
        else ("cpu.shares", ("1024", "2"))
    )
    for priority, weight in zip((CpuPriority.NORMAL, CpuPriority.BACKGROUND), weights, strict=True):
        cgroup.set_limits(SandboxLimits(priority=priority))
        assert (cgroup.folder("cpu") / weight_file).read_text().strip() == weight


@needs_root
def test_the_peak_memory_is_counted_afresh_for_each_sandbox(cgroup: SlotCgroup) -> None:
    def body() -> None:
        allocate(96)

    limits = SandboxLimits(time_s=5.0, memory_mb=256)
    first = watched(body, limits, cgroup)
    second = watched(lambda: None, limits, cgroup)
    assert first.usage.memory_bytes >= 96 * MB
    if cgroup.reset_peak_memory():
        assert second.usage.memory_bytes < 96 * MB


def test_only_this_machines_cgroups_whose_zygote_is_gone_are_removed(tmp_path: Path) -> None:
    parent = tmp_path / "parent"
    gone, alive, foreign = (
        parent / f"{own_prefix()}gone-{uuid.uuid4().hex}",
        parent / f"{own_prefix()}alive-{uuid.uuid4().hex}",
        parent / "numjudge-sandbox-anothermachine-0",
    )
    for folder in (gone, alive, foreign):
        folder.mkdir(parents=True)
    state_folder = Path(tempfile.gettempdir()) / alive.name
    state_folder.mkdir()
    try:
        remove_stale(parent)
    finally:
        state_folder.rmdir()
    assert sorted(path.name for path in parent.iterdir()) == sorted([alive.name, foreign.name])


def test_the_watch_stops_a_process_at_its_cpu_time() -> None:
    result = watched(lambda: spin(60), SandboxLimits(time_s=0.5))
    assert (result.code, result.killed) == (EXIT_TIMEOUT, True)
    assert result.usage.cpu_s >= 0.5


@pytest.mark.slow
def test_the_watch_stops_a_process_that_only_waits_at_the_wall_clock_backstop() -> None:
    limits = SandboxLimits(time_s=0.2)
    result = watched(lambda: time.sleep(60), limits)
    assert (result.code, result.killed) == (EXIT_WALL_LIMIT, True)
    assert result.usage.cpu_s < limits.time_s


def test_the_watch_reports_the_exit_code_and_usage_of_a_process_that_ends() -> None:
    def body() -> None:
        allocate(32)
        os._exit(3)

    result = watched(body, SandboxLimits(time_s=5.0))
    assert (result.code, result.killed) == (3, False)
    assert result.usage.memory_bytes >= 32 * MB


@pytest.mark.slow
def test_a_query_while_the_process_runs_is_answered() -> None:
    ours, theirs = socket.socketpair()
    answered: list[bytes] = []

    def answer() -> bool:
        message = ours.recv(16)
        answered.append(message)
        return bool(message)

    pids: list[int] = []
    meter = Meter(None, processes=lambda: pids)
    meter.begin()
    pid = start(lambda: time.sleep(0.5))
    pids.append(pid)
    with contextlib.closing(ours), contextlib.closing(theirs):
        theirs.sendall(b"usage?")
        result = watch(pid, SandboxLimits(time_s=5.0), meter, ours, answer)
    assert answered[0] == b"usage?"
    assert (result.code, result.killed) == (0, False)


class LaggingMeter(Meter):
    """A meter whose count lags far behind the kernel's. On a loaded host the exact CPU time
    the meter reads was 9.88 s and 9.98 s when RLIMIT_CPU's count, sampled at each clock
    tick, reached its 11 s; here the lag is large enough to be certain."""

    LAG = 0.1

    def final(self, rusage: resource.struct_rusage) -> Usage:
        usage = super().final(rusage)
        return replace(usage, cpu_s=usage.cpu_s * self.LAG)


def test_a_process_the_kernel_stopped_at_its_cpu_limit_timed_out() -> None:
    limits = SandboxLimits(time_s=0.5)  # RLIMIT_CPU: 2 s

    def body() -> None:
        set_resource_limits(limits)
        spin(60)

    meter = LaggingMeter(None, processes=lambda: [])
    meter.begin()
    # Reaped as the watch reaps a sandbox that ended before it looked: only the kernel stops it.
    result = reap(start(body), limits, meter, CpuCeiling())
    assert (result.code, result.killed) == (EXIT_TIMEOUT, False)
    assert result.usage.cpu_s < limits.time_s  # the meter's count never reached the limit


def test_a_process_that_kills_itself_under_its_cpu_limit_ends_by_that_signal() -> None:
    limits = SandboxLimits(time_s=0.5)

    def body() -> None:
        set_resource_limits(limits)
        spin(0.1)
        os.kill(os.getpid(), signal.SIGKILL)

    result = watched(body, limits)
    assert (result.code, result.killed) == (EXIT_SIGNAL_BASE + signal.SIGKILL, False)


def test_resource_limits_never_rise_above_the_processs_own() -> None:
    """Set after the uid change (``zygote.first_layers``), where raising one is refused: a
    limit the host set lower than the sandbox's holds, and every other is set as asked."""
    code = (
        "import resource\n"
        "from graders.sandbox.isolation import set_resource_limits\n"
        "from graders.sandbox.limits import SandboxLimits\n"
        "resource.setrlimit(resource.RLIMIT_NOFILE, (32, 32))\n"
        "set_resource_limits(SandboxLimits(max_open_files=64, max_processes=16))\n"
        "print(*resource.getrlimit(resource.RLIMIT_NOFILE), "
        "*resource.getrlimit(resource.RLIMIT_NPROC))\n"
    )
    ran = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert ran.stdout.split() == ["32", "32", "16", "16"]
