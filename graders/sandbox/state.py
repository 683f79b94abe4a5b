"""Each zygote's private state folder, and finding the folders of zygotes that died.

A zygote keeps what it needs on the host (the empty mount point of its sandboxes' root) in a
folder of its own: mode 0700, a random name, and a ``lock`` file it holds an exclusive
``flock`` on for its whole life. The kernel releases the lock when the zygote dies, however it
dies, so a folder whose lock can be taken belongs to nobody and can be removed: by the
trusted side once the zygote ended normally (in the zygote's own mount namespace its root
image stays mounted on the folder), or by the next zygote's claim. This works
across PID namespaces and containers sharing ``/tmp``, where a process ID means nothing.
A folder's name carries its machine (``graders.sandbox.machine``): a cleaner looks only at its
own machine's, as a lock taken on another machine (a shared ``/tmp``) proves nothing here.

A cleaner of the temporary folder (``systemd-tmpfiles``, ``tmpreaper``) knows nothing of locks:
it may remove a live zygote's folder, and with it, in every mount namespace, what was mounted
on it. Its owner tells by its lock file: gone, or another file in its place, the folder
``vanished`` and what used it is made again (docs/reliability.md).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from graders.sandbox.machine import kernel_id, machine_id

STATE_PREFIX = "numjudge-sandbox-"
BUILDING_PREFIX = "numjudge-building-"
LOCK_NAME = "lock"
ROOT_NAME = "root"
MOVES_NAME = "cgroup-moves"
"""Where the zygote, in its own mount namespace, mounts the hierarchy that makes cgroup moves
fast (``zygote.favor_cgroup_moves``): an empty folder seen from anywhere else."""


@dataclass(frozen=True)
class StateFolder:
    path: Path
    lock_fd: int
    """Held (flock, exclusive) until the zygote ends."""
    identity: tuple[int, int]
    """The device and inode of its lock file (``lock_identity``)."""

    @classmethod
    def held(cls, path: Path, lock_fd: int) -> StateFolder:
        """The folder at ``path`` whose lock file ``lock_fd`` is open on."""
        status = os.fstat(lock_fd)
        return cls(path, lock_fd, (status.st_dev, status.st_ino))

    @property
    def root_mountpoint(self) -> str:
        return str(self.path / ROOT_NAME)

    @property
    def moves_mountpoint(self) -> Path:
        return self.path / MOVES_NAME

    def vanished(self) -> bool:
        """Whether the folder was removed (or another put in its place) since it was made."""
        return vanished(self.path, self.identity)


def claim(parent: Path | None = None) -> StateFolder:
    """Remove stale state folders, then make and lock a new one.

    The folder is built and locked under a name no cleaner looks at, then renamed: a folder
    with the state prefix is always either locked by its zygote or stale.
    """
    parent = parent or Path(tempfile.gettempdir())
    remove_stale(parent)
    building = Path(tempfile.mkdtemp(prefix=BUILDING_PREFIX, dir=parent))
    lock_fd = os.open(building / LOCK_NAME, os.O_CREAT | os.O_RDWR | os.O_CLOEXEC, 0o600)
    fcntl.flock(lock_fd, fcntl.LOCK_EX)
    (building / ROOT_NAME).mkdir(mode=0o700)
    path = parent / (own_prefix() + building.name.removeprefix(BUILDING_PREFIX))
    building.rename(path)
    return StateFolder.held(path, lock_fd)


def own_prefix() -> str:
    """The start of this machine's state folders' names (and of its sandboxes' cgroups)."""
    return f"{STATE_PREFIX}{machine_id()}-"


def remove_stale(parent: Path) -> list[Path]:
    """Remove every state folder of this machine under ``parent`` whose lock nobody holds;
    return them."""
    removed = []
    for folder in parent.glob(f"{own_prefix()}*"):
        try:
            lock_fd = os.open(folder / LOCK_NAME, os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:
            continue  # another user's folder, or one being removed right now
        try:
            fcntl.flock(lock_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(lock_fd)
            continue  # a live zygote holds it
        try:
            if remove(folder):
                removed.append(folder)
        finally:
            os.close(lock_fd)
    return removed


def lock_identity(folder: Path) -> tuple[int, int] | None:
    """The device and inode of the folder's lock file; None if it has none."""
    try:
        status = os.stat(folder / LOCK_NAME, follow_symlinks=False)
    except OSError:
        return None
    return status.st_dev, status.st_ino


def vanished(folder: Path, identity: tuple[int, int]) -> bool:
    """Whether ``folder`` no longer holds the lock file ``identity`` names and its mount
    point: the folder its owner made is gone, even if another of that name was made since."""
    return lock_identity(folder) != identity or not (folder / ROOT_NAME).is_dir()


def remove(folder: Path) -> bool:
    """Remove a state folder holding nothing but its lock and its empty mount points.

    Never recursive: the mount point is empty only where no root is mounted on it, and
    anything unexpected is left alone rather than followed.
    """
    try:
        (folder / ROOT_NAME).rmdir()
        with contextlib.suppress(FileNotFoundError):  # made by a zygote that had cgroups
            (folder / MOVES_NAME).rmdir()
        (folder / LOCK_NAME).unlink()
        folder.rmdir()
    except OSError:
        return False
    return True


UID_FOLDERS = (Path("/run/numjudge/uids"), Path(tempfile.gettempdir()) / "numjudge-uids")
"""Each holds a folder per kernel (``machine.kernel_id``) of lock files, one per uid."""
MAX_UIDS = 4096


def claim_uid(uid_base: int) -> tuple[int, int]:
    """A uid no other zygote on this host uses while this one lives, and the lock that says so.

    Every pool of every process (and container sharing the folder) takes its slots' uids
    from the same lock files, so no two sandboxes share a uid's process count or files.
    """
    for parent in UID_FOLDERS:
        folder = parent / kernel_id()
        try:
            folder.mkdir(mode=0o755, parents=True, exist_ok=True)
            break
        except OSError:
            continue
    for number in range(MAX_UIDS):
        fd = os.open(folder / str(number), os.O_CREAT | os.O_RDWR | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue
        return uid_base + number, fd
    raise OSError(f"all {MAX_UIDS} sandbox uids from {uid_base} are in use")
