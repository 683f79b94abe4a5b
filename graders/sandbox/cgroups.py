"""One memory, process and CPU budget for all the processes of a submission: a cgroup per slot.

RLIMIT_AS and RLIMIT_NPROC bound each process; a submission that forks 16 processes could
use 16 times the memory, and memfd files or shared memory count in no process's limit. A
cgroup counts every page and process of the submission together. Each zygote makes its own
cgroup once (in every controller it uses) and moves each sandbox's PID 1 into it before that
reads any code, so nothing per submission is created or removed: the limits are rewritten
only when an exercise's differ from the last one's.

Its counters are also how a run's cost is measured, ended processes included: the CPU time
of all of them (``cpu.stat`` in v2, ``cpuacct.usage`` in v1) and their peak memory together
(``memory.peak``, ``memory.max_usage_in_bytes``), reset before each sandbox.

cgroup v2 where ``/sys/fs/cgroup`` is a unified hierarchy, v1 (a hierarchy per controller)
otherwise. The cgroups are made under the zygote's own, so limits set on the service (by
systemd, a container) still hold. Only root can make them; not root there is no cgroup layer.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

from graders.errors import SandboxUnavailable
from graders.sandbox.limits import CpuPriority, SandboxLimits
from graders.sandbox.state import own_prefix

CGROUP_ROOT = Path("/sys/fs/cgroup")
CONTROLLERS = ("memory", "pids", "cpu")
V1_CONTROLLERS = (*CONTROLLERS, "cpuacct")
"""v1 counts CPU time in a controller of its own, often mounted together with ``cpu``."""
CPU_PERIOD_US = 100_000
COUNTER_BYTES = 64 * 1024
"""More than any counter file this module reads holds (a few lines each)."""
RESET_COUNTERS = frozenset({"memory.max_usage_in_bytes"})
"""The counter files written as well as read (v1's peak memory, reset before each sandbox)."""


class CgroupVersion(Enum):
    V1 = "v1"
    V2 = "v2"


def detect_version() -> CgroupVersion:
    return CgroupVersion.V2 if (CGROUP_ROOT / "cgroup.controllers").is_file() else CgroupVersion.V1


def own_cgroup(controller: str, version: CgroupVersion) -> Path:
    """The folder of this process's cgroup for ``controller``."""
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, names, path = line.split(":", 2)
        if (version is CgroupVersion.V2 and names == "") or controller in names.split(","):
            base = CGROUP_ROOT if version is CgroupVersion.V2 else CGROUP_ROOT / controller
            return base / path.lstrip("/")
    raise SandboxUnavailable(f"cgroup: no {controller} controller for this process")


@dataclass
class SlotCgroup:
    """A zygote's cgroup(s): the files its sandboxes join and the limits last written."""

    version: CgroupVersion
    folders: tuple[Path, ...]
    """One per controller of ``V1_CONTROLLERS`` in v1 (the same folder for controllers
    mounted together), the single one in v2."""
    join_fds: tuple[int, ...]
    """``cgroup.procs`` of each distinct folder, opened by the zygote, which writes a
    sandbox's PID there."""
    written: tuple[int, int, CpuPriority] | None = None
    peak_fd: int | None = None
    """v2's ``memory.peak``, opened once: a write resets the peak this descriptor reads."""
    out_of_memory_fd: int | None = None
    """v1: an eventfd the kernel makes readable when this cgroup runs out of memory. Its OOM
    killer kills one process and lets the others run on, a parent waiting for its killed
    child, say, until the wall clock stops it: the zygote ends the whole sandbox on this
    event instead. (v2's ``memory.oom.group`` has the kernel kill them all.)"""
    counter_fds: dict[Path, int] = field(default_factory=dict)
    """The counter files read (or reset) around every sandbox, each opened on first use and
    kept: a read is then one ``pread``, where opening the file each time cost 50 µs of the
    zygote's CPU per read, four to six reads per submission (docs/performance.md)."""

    @classmethod
    def create(cls, name: str) -> SlotCgroup:
        """Make the cgroups ``name`` (the zygote's state folder's name) under this process's."""
        version = detect_version()
        if version is CgroupVersion.V2:
            parent = own_cgroup("", version)
            _write(
                parent / "cgroup.subtree_control",
                " ".join(f"+{c}" for c in CONTROLLERS),
                "enabling the controllers for child cgroups (a v2 cgroup with processes "
                "of its own cannot: run the service in a delegated cgroup)",
            )
            parents = [parent]
        else:
            parents = [own_cgroup(controller, version) for controller in V1_CONTROLLERS]
        made: dict[Path, Path] = {}
        try:
            for parent in parents:
                if parent.resolve() not in made:
                    remove_stale(parent)
                    (parent / name).mkdir(mode=0o755)
                    made[parent.resolve()] = parent / name
            join_fds = tuple(
                os.open(folder / "cgroup.procs", os.O_WRONLY | os.O_CLOEXEC)
                for folder in made.values()
            )
        except OSError as exc:
            for folder in made.values():
                with contextlib.suppress(OSError):
                    folder.rmdir()
            raise SandboxUnavailable(f"cgroup {exc.filename}: {exc.strerror}") from exc
        slot = cls(version, tuple(made[parent.resolve()] for parent in parents), join_fds)
        if version is CgroupVersion.V2:
            _write(slot.folder("cpu") / "cpu.max", f"{CPU_PERIOD_US} {CPU_PERIOD_US}", "cpu.max")
            _write(slot.folder("memory") / "memory.swap.max", "0", "memory.swap.max", optional=True)
            _write(slot.folder("memory") / "memory.oom.group", "1", "memory.oom.group")
            # Before Linux 6.12 memory.peak is read-only: the peak of the cgroup's whole life.
            with contextlib.suppress(OSError):
                slot.peak_fd = os.open(
                    slot.folder("memory") / "memory.peak", os.O_RDWR | os.O_CLOEXEC
                )
        else:
            cpu = slot.folder("cpu")
            _write(cpu / "cpu.cfs_period_us", str(CPU_PERIOD_US), "cpu period")
            _write(cpu / "cpu.cfs_quota_us", str(CPU_PERIOD_US), "cpu quota")
            slot.out_of_memory_fd = _out_of_memory_events(slot.folder("memory"))
        return slot

    def folder(self, controller: str) -> Path:
        if self.version is CgroupVersion.V2:
            return self.folders[0]
        return self.folders[V1_CONTROLLERS.index(controller)]

    def set_limits(self, limits: SandboxLimits) -> None:
        """The memory of all the sandbox's processes together, their number, their share of
        the CPU; written only when they change."""
        wanted = (limits.memory_mb * 1024 * 1024, limits.max_processes, limits.priority)
        if wanted == self.written:
            return
        memory, processes, priority = wanted
        if self.written is None or priority is not self.written[2]:
            self._set_cpu_weight(priority)
        if self.version is CgroupVersion.V2:
            _write(self.folder("memory") / "memory.max", str(memory), "memory.max")
            _write(self.folder("pids") / "pids.max", str(processes), "pids.max")
        else:
            memory_folder = self.folder("memory")
            # memsw (memory + swap) may never be below the memory limit: order the writes.
            files = ["memory.limit_in_bytes", "memory.memsw.limit_in_bytes"]
            if self.written is not None and memory > self.written[0]:
                files.reverse()
            for file in files:
                _write(
                    memory_folder / file,
                    str(memory),
                    file,
                    optional=file.startswith("memory.memsw"),
                )
            _write(self.folder("pids") / "pids.max", str(processes), "pids.max")
        self.written = wanted

    def _set_cpu_weight(self, priority: CpuPriority) -> None:
        # A cgroup competes for the CPU with its siblings by weight, whatever its processes'
        # nice values: a background sandbox's cgroup gets the smallest weight there is.
        background = priority is CpuPriority.BACKGROUND
        if self.version is CgroupVersion.V2:
            _write(self.folder("cpu") / "cpu.weight", "1" if background else "100", "cpu.weight")
        else:
            _write(self.folder("cpu") / "cpu.shares", "2" if background else "1024", "cpu.shares")

    def add(self, pid: int) -> None:
        """Called by the zygote with its sandbox's PID 1, which has run no submitted code yet:
        it and every process it starts belong here."""
        for fd in self.join_fds:
            os.write(fd, str(pid).encode())

    def out_of_memory_kills(self) -> int:
        """How many times the kernel killed a process here for going over the memory limit."""
        file = "memory.events" if self.version is CgroupVersion.V2 else "memory.oom_control"
        with contextlib.suppress(OSError):
            return _field(self._read(self.folder("memory") / file), "oom_kill", file)
        return 0

    def forget_out_of_memory_events(self) -> None:
        """Drop the events of earlier sandboxes (before each sandbox)."""
        if self.out_of_memory_fd is not None:
            with contextlib.suppress(BlockingIOError):
                os.eventfd_read(self.out_of_memory_fd)

    def cpu_time_s(self) -> float:
        """CPU time (user + system) of every process that ever ran here, ended ones too."""
        if self.version is CgroupVersion.V2:
            return (
                _field(self._read(self.folder("cpu") / "cpu.stat"), "usage_usec", "cpu.stat") / 1e6
            )
        return int(self._read(self.folder("cpuacct") / "cpuacct.usage")) / 1e9

    def reset_peak_memory(self) -> bool:
        """Count the peak memory afresh from now on (before each sandbox); False where the
        kernel cannot (v2 before Linux 6.12)."""
        try:
            if self.version is CgroupVersion.V2:
                if self.peak_fd is None:
                    return False
                os.write(self.peak_fd, b"reset")
            else:
                os.pwrite(
                    self._counter(self.folder("memory") / "memory.max_usage_in_bytes"), b"0", 0
                )
        except OSError:
            return False
        return True

    def peak_memory_bytes(self) -> int:
        """The most memory the processes here used together since ``reset_peak_memory``."""
        if self.version is CgroupVersion.V2:
            assert self.peak_fd is not None, "reset_peak_memory said it could not"
            return int(os.pread(self.peak_fd, 64, 0))
        return int(self._read(self.folder("memory") / "memory.max_usage_in_bytes"))

    def _counter(self, path: Path) -> int:
        """The kept descriptor of one of this cgroup's files (opened now if it was not)."""
        fd = self.counter_fds.get(path)
        if fd is None:
            # Only a file this module resets is opened for writing: the kernel refuses to open
            # the read-only counters so, even for root.
            mode = os.O_RDWR if path.name in RESET_COUNTERS else os.O_RDONLY
            fd = self.counter_fds[path] = os.open(path, mode | os.O_CLOEXEC)
        return fd

    def _read(self, path: Path) -> str:
        """What one of this cgroup's files says now: the kernel writes it afresh at each read
        from its start."""
        return os.pread(self._counter(path), COUNTER_BYTES, 0).decode()

    def remove(self) -> None:
        for fd in (*self.join_fds, self.peak_fd, self.out_of_memory_fd, *self.counter_fds.values()):
            if fd is None:
                continue
            with contextlib.suppress(OSError):
                os.close(fd)
        for folder in dict.fromkeys(self.folders):
            with contextlib.suppress(OSError):
                folder.rmdir()


def remove_stale(parent: Path) -> None:
    """Remove the cgroups of this machine's zygotes killed before they could remove their own.

    A cgroup is named after its zygote's state folder, which outlives a killed zygote only
    until the next claim (``state.remove_stale``); a cgroup with a process in it cannot be
    removed anyway. Another machine's cgroups under the same parent (a container or network
    namespace on this kernel) have their state folders in another ``/tmp``: their names say
    whose they are, and they are left alone.
    """
    for folder in parent.glob(f"{own_prefix()}*"):
        if not (Path(tempfile.gettempdir()) / folder.name).exists():
            with contextlib.suppress(OSError):
                folder.rmdir()


def _out_of_memory_events(memory_folder: Path) -> int:
    """An eventfd registered for the v1 cgroup's out-of-memory notifications."""
    events = os.eventfd(0, os.EFD_CLOEXEC | os.EFD_NONBLOCK)
    try:
        # The registration holds what it needs of ``memory.oom_control``: not its descriptor.
        control = os.open(memory_folder / "memory.oom_control", os.O_RDONLY | os.O_CLOEXEC)
        try:
            _write(
                memory_folder / "cgroup.event_control",
                f"{events} {control}",
                "out-of-memory notifications",
            )
        finally:
            os.close(control)
    except (OSError, SandboxUnavailable):
        os.close(events)
        raise
    return events


def _field(text: str, key: str, file: str) -> int:
    """The value of ``key`` in ``file``'s ``key value`` lines (``cpu.stat``, ``memory.events``)."""
    for line in text.splitlines():
        name, _, value = line.partition(" ")
        if name == key:
            return int(value)
    raise OSError(f"no {key} in {file}")


def _write(path: Path, value: str, what: str, *, optional: bool = False) -> None:
    try:
        path.write_text(value)
    except OSError as exc:
        if optional and exc.errno in (2, 13):  # not there (no swap accounting) or refused
            return
        raise SandboxUnavailable(f"cgroup {what}: {exc.strerror}") from exc
