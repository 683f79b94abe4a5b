"""Which CPUs a service process's own threads run on, and which its child processes get.

The threads of one Python process share one interpreter lock: one of them runs Python at a
time. Spread over several cores they hand that lock from core to core, and each handover
wakes a thread on another core, through an interprocessor interrupt that is dear in a
virtual machine. A service process (the trusted side of every grading, the database work,
HTTP) spends more on those handovers than it gains from a second core, since it can run
Python on only one at a time anyway: kept on one core, the same submissions cost it about a
tenth less CPU and the host graded about a tenth more of them per second
(docs/performance.md). The processes it starts (zygotes and their sandboxes, mutant runs)
are another matter: they work in parallel, so they get every CPU the process had.

Several service processes on one host (a web process and a worker, say) would get in each
other's way on one core: each claims its cores with a lock file held for its life, in a
folder every numjudge process on the host shares (``/run/numjudge/cores``, or one in the
temporary folder; ``NUMJUDGE_CORES_DIR`` names another; a folder per kernel in any of them,
as a lock means nothing on another one), and takes only cores no other holds. With every core
taken, a process is not pinned at all. Linux only; elsewhere nothing is pinned.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

from graders.sandbox.machine import kernel_id

CORE_FOLDERS = (
    Path("/run/numjudge/cores"),
    Path(tempfile.gettempdir()) / f"numjudge-cores-{os.geteuid()}",
)

_before_pinning: frozenset[int] | None = None
_claims: list[int] = []
"""The lock files of the claimed cores, held open (and locked) for the process's life."""


def process_cpus() -> frozenset[int]:
    """The CPUs this process may use: all it had before :func:`keep_threads_on`, if called."""
    if _before_pinning is not None:
        return _before_pinning
    if not hasattr(os, "sched_getaffinity"):
        return frozenset(range(os.cpu_count() or 1))
    return frozenset(os.sched_getaffinity(0))


def keep_threads_on(count: int, folder: Path | None = None) -> frozenset[int]:
    """Run every thread of this process, and every thread it starts later, on ``count`` of
    its CPUs that no other numjudge process on the host claimed (the highest-numbered first:
    the first ones tend to take more of the host's interrupts). ``count`` 0, or at least as
    many as it has, or none left unclaimed: all of them. The claims are lock files in this
    kernel's folder under ``folder``, by default under the first usable of ``CORE_FOLDERS``.
    Returns the CPUs its threads now run on."""
    global _before_pinning
    every = process_cpus()
    if not hasattr(os, "sched_setaffinity") or count <= 0 or count >= len(every):
        return every
    chosen = claim_cores(sorted(every, reverse=True), count, None if folder is None else (folder,))
    if not chosen:
        return every
    _before_pinning = every
    # A new thread inherits its creator's CPUs: the threads started so far (numpy's BLAS
    # threads, say) are set one by one, this one too.
    for task in os.listdir("/proc/self/task"):
        with contextlib.suppress(ProcessLookupError):  # a thread that ended meanwhile
            os.sched_setaffinity(int(task), chosen)
    return chosen


def claim_cores(
    candidates: list[int], count: int, folders: Sequence[Path] | None = None
) -> frozenset[int]:
    """Up to ``count`` of ``candidates``, in their order, that no live process claimed in the
    first usable of ``folders`` (by default ``CORE_FOLDERS``)."""
    folder = next(
        (
            folder / kernel_id()
            for folder in folders or CORE_FOLDERS
            if _usable(folder / kernel_id())
        ),
        None,
    )
    if folder is None:
        return frozenset()
    claimed: list[int] = []
    for cpu in candidates:
        if len(claimed) == count:
            break
        try:
            fd = os.open(folder / str(cpu), os.O_CREAT | os.O_RDWR | os.O_CLOEXEC, 0o600)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)  # held by another live process
            continue
        _claims.append(fd)
        claimed.append(cpu)
    return frozenset(claimed)


def _usable(folder: Path) -> bool:
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        return False
    return os.access(folder, os.W_OK | os.X_OK)


@contextlib.contextmanager
def children_use_every_cpu() -> Iterator[None]:
    """A process started inside runs on every CPU of :func:`process_cpus`, not only on this
    thread's: the calling thread holds them for that moment (affinity is per thread)."""
    every = process_cpus()
    if not hasattr(os, "sched_setaffinity"):
        yield
        return
    own = frozenset(os.sched_getaffinity(0))
    if own == every:
        yield
        return
    os.sched_setaffinity(0, every)
    try:
        yield
    finally:
        os.sched_setaffinity(0, own)
