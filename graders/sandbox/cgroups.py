"""One memory, process and CPU budget for all the processes of a submission: a cgroup per slot.

RLIMIT_AS and RLIMIT_NPROC bound each process; a submission that forks 16 processes could
use 16 times the memory, and memfd files or shared memory count in no process's limit. A
cgroup counts every page and process of the submission together. Each zygote makes its own
cgroup once (in every controller it uses) and moves each sandbox's PID 1 into it before that
reads any code, so nothing per submission is created or removed: the limits are rewritten
only when an exercise's differ from the last one's.

cgroup v2 where ``/sys/fs/cgroup`` is a unified hierarchy, v1 (a hierarchy per controller)
otherwise. The cgroups are made under the zygote's own, so limits set on the service (by
systemd, a container) still hold. Only root can make them; not root there is no cgroup layer.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from graders.errors import SandboxUnavailable
from graders.sandbox.limits import CpuPriority, SandboxLimits
from graders.sandbox.state import own_prefix

CGROUP_ROOT = Path("/sys/fs/cgroup")
CONTROLLERS = ("memory", "pids", "cpu")
CPU_PERIOD_US = 100_000


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
    """One per controller in v1, the single one in v2."""
    join_fds: tuple[int, ...]
    """``cgroup.procs`` of each folder, opened by the zygote, which writes a sandbox's PID there."""
    written: tuple[int, int, CpuPriority] | None = None

    @classmethod
    def create(cls, name: str) -> SlotCgroup:
        """Make the cgroups ``name`` (the zygote's state folder's name) under this process's."""
        version = detect_version()
        if version is CgroupVersion.V2:
            parent = own_cgroup("", version)
            _write(parent / "cgroup.subtree_control", " ".join(f"+{c}" for c in CONTROLLERS),
                   "enabling the controllers for child cgroups (a v2 cgroup with processes "
                   "of its own cannot: run the service in a delegated cgroup)")
            parents = [parent]
        else:
            parents = [own_cgroup(controller, version) for controller in CONTROLLERS]
        folders = []
        try:
            for parent in parents:
                remove_stale(parent)
                folder = parent / name
                folder.mkdir(mode=0o755)
                folders.append(folder)
            join_fds = tuple(os.open(folder / "cgroup.procs", os.O_WRONLY | os.O_CLOEXEC)
                             for folder in folders)
        except OSError as exc:
            for folder in folders:
                with contextlib.suppress(OSError):
                    folder.rmdir()
            raise SandboxUnavailable(f"cgroup {exc.filename}: {exc.strerror}") from exc
        slot = cls(version, tuple(folders), join_fds)
        if version is CgroupVersion.V2:
            _write(folders[0] / "cpu.max", f"{CPU_PERIOD_US} {CPU_PERIOD_US}", "cpu.max")
            _write(folders[0] / "memory.swap.max", "0", "memory.swap.max", optional=True)
        else:
            cpu = folders[CONTROLLERS.index("cpu")]
            _write(cpu / "cpu.cfs_period_us", str(CPU_PERIOD_US), "cpu period")
            _write(cpu / "cpu.cfs_quota_us", str(CPU_PERIOD_US), "cpu quota")
        return slot

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
            _write(self.folders[0] / "memory.max", str(memory), "memory.max")
            _write(self.folders[0] / "pids.max", str(processes), "pids.max")
        else:
            memory_folder = self.folders[CONTROLLERS.index("memory")]
            # memsw (memory + swap) may never be below the memory limit: order the writes.
            files = ["memory.limit_in_bytes", "memory.memsw.limit_in_bytes"]
            if self.written is not None and memory > self.written[0]:
                files.reverse()
            for file in files:
                _write(memory_folder / file, str(memory), file, optional=file.startswith(
                    "memory.memsw"))
            _write(self.folders[CONTROLLERS.index("pids")] / "pids.max", str(processes),
                   "pids.max")
        self.written = wanted

    def _set_cpu_weight(self, priority: CpuPriority) -> None:
        # A cgroup competes for the CPU with its siblings by weight, whatever its processes'
        # nice values: a background sandbox's cgroup gets the smallest weight there is.
        background = priority is CpuPriority.BACKGROUND
        if self.version is CgroupVersion.V2:
            _write(self.folders[0] / "cpu.weight", "1" if background else "100", "cpu.weight")
        else:
            _write(self.folders[CONTROLLERS.index("cpu")] / "cpu.shares",
                   "2" if background else "1024", "cpu.shares")

    def add(self, pid: int) -> None:
        """Called by the zygote with its sandbox's PID 1, which has run no submitted code yet:
        it and every process it starts belong here."""
        for fd in self.join_fds:
            os.write(fd, str(pid).encode())

    def out_of_memory_kills(self) -> int:
        """How many times the kernel killed a process here for going over the memory limit."""
        if self.version is CgroupVersion.V2:
            path = self.folders[0] / "memory.events"
        else:
            path = self.folders[CONTROLLERS.index("memory")] / "memory.oom_control"
        with contextlib.suppress(OSError):
            for line in path.read_text().splitlines():
                key, _, value = line.partition(" ")
                if key == "oom_kill":
                    return int(value)
        return 0

    def remove(self) -> None:
        for fd in self.join_fds:
            with contextlib.suppress(OSError):
                os.close(fd)
        for folder in self.folders:
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


def _write(path: Path, value: str, what: str, *, optional: bool = False) -> None:
    try:
        path.write_text(value)
    except OSError as exc:
        if optional and exc.errno in (2, 13):  # not there (no swap accounting) or refused
            return
        raise SandboxUnavailable(f"cgroup {what}: {exc.strerror}") from exc
