"""What one sandboxed grading may use."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any


class CpuPriority(Enum):
    """How a sandbox shares the CPU with the others."""

    NORMAL = "normal"
    BACKGROUND = "background"
    """Only what the normal ones leave: work nobody is waiting for (a regrade)."""


WALL_FACTOR = 2
WALL_GRACE_S = 1.0
STARVED_FACTOR = 10


@dataclass(frozen=True)
class SandboxLimits:
    time_s: float = 5.0
    """CPU time (user + system) of all the submission's processes together, loading plus
    every case. A busy host slows a submission down without bringing it nearer this limit;
    the wall clock is only a backstop (``wall_s``, ``starved_wall_s``)."""
    memory_mb: int = 512
    """Address-space limit (RLIMIT_AS) of the sandboxed process."""
    max_output_mb: int = 64
    """Bytes the sandbox may send back in all (arrays and text)."""
    max_stdout_chars: int = 20_000
    """Printed text kept per submission; the rest is cut."""
    max_processes: int = 16
    max_open_files: int = 64
    max_file_mb: int = 16
    stack_mb: int = 8
    """RLIMIT_STACK of each process, soft and hard: the usual default, which submitted code
    cannot raise (an unlimited stack also changes where the kernel places mappings)."""
    tmpfs_mb: int = 32
    uid_base: int = 61000
    """Worker slot ``k`` runs submissions as uid/gid ``uid_base + k``."""
    strict: bool = True
    """Refuse to grade when an isolation layer cannot be set up (instead of running without it)."""
    priority: CpuPriority = CpuPriority.NORMAL

    @property
    def cpu_s(self) -> int:
        """RLIMIT_CPU of each process: the kernel's own stop, should the zygote that watches
        the CPU time of them all be late."""
        return math.ceil(self.time_s) + 1

    @property
    def wall_s(self) -> float:
        """Wall-clock time after which a submission that spent most of it waiting (sleeping,
        blocked), not computing or queued for a CPU, is stopped: the learner's timeout."""
        return self.time_s * WALL_FACTOR + WALL_GRACE_S

    @property
    def starved_wall_s(self) -> float:
        """Wall-clock time after which a submission still short of its CPU time, having been
        runnable most of the time, is given up as the host's fault (``SandboxStarved``)."""
        return self.time_s * STARVED_FACTOR + WALL_GRACE_S

    def with_exercise_limits(self, time_s: float, memory_mb: int) -> SandboxLimits:
        return replace(self, time_s=time_s, memory_mb=memory_mb)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form sent to a zygote (``from_dict`` reads it back)."""
        values = {name: getattr(self, name) for name in self.__dataclass_fields__}
        values["priority"] = self.priority.value
        return values

    @classmethod
    def from_dict(cls, values: dict[str, Any]) -> SandboxLimits:
        return cls(**{**values, "priority": CpuPriority(values["priority"])})
