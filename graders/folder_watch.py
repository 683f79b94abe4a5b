"""Whether anything under a folder changed since a moment ago, without reading the folder.

``ExerciseCatalog`` checks an exercise's files (size and time of each) before every use, two
or three times per submission; with a watch it does so only after the kernel reported a
change. Linux's inotify reports a change inside the system call that makes it, so a
``generation`` read after an edit returned always differs from one read before it.

Where a change could go unreported (no inotify, a network or FUSE file system whose edits can
come from another machine, a watch the kernel refused, an overflowed event queue), the watch
says it cannot tell and the catalog reads the folder every time, as without one.
"""

from __future__ import annotations

import logging
import os
import re
import stat
import threading
import weakref
from pathlib import Path

logger = logging.getLogger(__name__)

LOCAL_FILE_SYSTEMS = frozenset(
    {"ext2", "ext3", "ext4", "xfs", "btrfs", "tmpfs", "overlay", "zfs", "f2fs", "bcachefs", "ramfs"}
)
"""File systems whose every change is made by this kernel, which then reports it."""

IGNORED_FOLDERS = frozenset({"__pycache__"})


def file_system_type(path: Path) -> str | None:
    """The type of the mount holding ``path`` (``/proc/self/mountinfo``), None if unknown."""
    try:
        mounts = Path("/proc/self/mountinfo").read_text()
    except OSError:
        return None
    return mount_type(mounts, str(path.resolve()))


def mount_type(mountinfo: str, target: str) -> str | None:
    """The file system type of the deepest mount point in ``mountinfo`` holding ``target``."""
    best, kind = -1, None
    for line in mountinfo.splitlines():
        fields, _, rest = line.partition(" - ")
        parts = fields.split()
        if len(parts) < 5 or not rest:
            continue
        # The kernel writes a space, tab, newline or backslash in a path as an octal escape.
        mount_point = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), parts[4])
        inside = target == mount_point or target.startswith(mount_point.rstrip("/") + "/")
        if inside and len(mount_point) > best:
            best, kind = len(mount_point), rest.split()[0]
    return kind


class Unwatchable(Exception):
    """A change under the folder could reach it without passing through a watched folder."""


class FolderWatch:
    """A counter that moves whenever anything under ``root`` is created, written, changed,
    moved or deleted. Safe to share between threads."""

    def __init__(self, root: Path) -> None:
        from inotify_simple import INotify, flags

        self.root = root
        self._flags = flags
        self._mask = (
            flags.MODIFY
            | flags.ATTRIB
            | flags.CLOSE_WRITE
            | flags.CREATE
            | flags.DELETE
            | flags.MOVED_FROM
            | flags.MOVED_TO
            | flags.DELETE_SELF
            | flags.MOVE_SELF
        )
        self._inotify = INotify()
        self._finalizer = weakref.finalize(self, self._inotify.close)
        self._lock = threading.Lock()
        self._generation = 0
        self._blind = False
        self._device = root.stat().st_dev
        self._folders: dict[int, Path] = {}
        try:
            self._watch_tree(root)
        except (Unwatchable, OSError):
            self.close()
            raise
        self._root_watch = next(iter(self._folders))

    @classmethod
    def start(cls, root: Path) -> FolderWatch | None:
        """A watch of ``root``, or None where it could miss changes."""
        kind = file_system_type(root)
        if kind not in LOCAL_FILE_SYSTEMS:
            logger.info("exercise folder on %s: its files are checked on every use", kind)
            return None
        try:
            return cls(root)
        except (ImportError, OSError, Unwatchable) as exc:
            logger.info("exercise folder not watched (%s): its files are checked on every use", exc)
            return None

    def generation(self) -> int | None:
        """The current count of changes, or None if a change may have gone unseen."""
        with self._lock:
            if self._blind:
                return None
            try:
                events = self._inotify.read(timeout=0)
                if events:
                    self._generation += 1
                    for event in events:
                        self._follow(event.mask, event.wd, event.name)
            except (OSError, Unwatchable) as exc:
                logger.warning(
                    "exercise folder watch stopped (%s): checking files on every use", exc
                )
                self._blind = True
                self.close()
                return None
            return self._generation

    def close(self) -> None:
        self._finalizer()

    def _follow(self, mask: int, wd: int, name: str) -> None:
        flags = self._flags
        if mask & flags.Q_OVERFLOW:
            raise Unwatchable("the event queue overflowed")
        if wd == self._root_watch and mask & (flags.DELETE_SELF | flags.MOVE_SELF | flags.IGNORED):
            raise Unwatchable("the folder itself was moved or deleted")
        parent = self._folders.get(wd)
        if parent is None or not mask & (flags.CREATE | flags.MOVED_TO) or name in IGNORED_FOLDERS:
            return
        # Something new: a folder (a whole tree, when moved in) is watched from now on; what
        # was written into it before is read by the caller's next check, since this event
        # already moved the counter.
        if mask & flags.ISDIR:
            self._watch_tree(parent / name)
        else:
            self._check_file(parent / name)

    def _watch_tree(self, top: Path) -> None:
        # Plain strings, not Paths: a catalog starts a watch of every exercise's files, and
        # pathlib's own work was most of its cost.
        for directory, subdirectories, files in os.walk(top):
            subdirectories[:] = [d for d in subdirectories if d not in IGNORED_FOLDERS]
            try:
                if os.lstat(directory).st_dev != self._device:
                    raise Unwatchable(f"{directory} is another file system")
                for name in (*subdirectories, *files):
                    self._check_file(os.path.join(directory, name))
                self._folders[self._inotify.add_watch(directory, self._mask)] = Path(directory)
            except FileNotFoundError:
                continue  # removed meanwhile: that already moved the counter

    @staticmethod
    def _check_file(path: Path | str) -> None:
        """A link's target, or a file's other names, change without an event here."""
        try:
            status = os.lstat(path)
        except FileNotFoundError:
            return
        if stat.S_ISLNK(status.st_mode):
            raise Unwatchable(f"{path} is a symbolic link")
        if stat.S_ISREG(status.st_mode) and status.st_nlink > 1:
            raise Unwatchable(f"{path} has other hard links")
