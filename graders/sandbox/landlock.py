"""A Landlock ruleset that keeps the kernel's mount tables out of a sandbox's reach.

``/proc/<pid>/mountinfo`` (and ``mounts``, ``mountstats``, each thread's copies under
``task/``, ``fdinfo``'s ``mnt_id``) describe every mount of the sandbox's namespace as the
host made it: the host path and device each read-only bind came from, the host's file system
options (a devtmpfs's size is the host's memory), and mount ids, which the kernel hands out
host-wide, lowest free first, so that they tell which other sandboxes are alive. A bind's
source path cannot be hidden by how it is mounted (the kernel prints it relative to its file
system's root), and a file over the table of one process leaves those of the next process or
thread, so the tables are made unreadable instead: after this layer the sandbox reads files
only beneath the top folders of its root other than ``/proc``, and in ``/proc`` only a few
files of PID 1 (its own folder, ``/proc/self`` in the harness), not the tables. Directories
stay listable. Nothing else is restricted: the other layers bound writing and executing.

Landlock needs no privilege, in a user namespace or not. A kernel without it (before 5.13,
or not enabled at boot) keeps the tables readable: the layer is then reported missing by the
doctor but not required (``unavailable``), since every other layer still holds.
"""

from __future__ import annotations

import ctypes
import errno
import os
import stat

from graders.errors import SandboxUnavailable

SYS_LANDLOCK_CREATE_RULESET = 444
SYS_LANDLOCK_ADD_RULE = 445
SYS_LANDLOCK_RESTRICT_SELF = 446
LANDLOCK_CREATE_RULESET_VERSION = 1
LANDLOCK_RULE_PATH_BENEATH = 1
READ_FILE = 1 << 2
READ_DIR = 1 << 3
PR_SET_NO_NEW_PRIVS = 38

READABLE_IN_PROC = (
    "status",
    "stat",
    "statm",
    "limits",
    "cgroup",
    "ns",
    "fd",
    "comm",
    "cmdline",
    "io",
    "schedstat",
    "maps",
    "smaps_rollup",
)
"""What of PID 1's folder may be read (the doctor's probe reads ``status``, ``cgroup`` and
``ns``); not the mount tables, ``fdinfo`` (each open file's ``mnt_id``) nor ``task`` (each
thread's copy of the tables). A list of what is allowed rather than of what is not: one rule
per entry costs about 10 µs a sandbox, and a kernel's new entries stay unreadable."""

_libc = ctypes.CDLL(None, use_errno=True)


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("handled_access_fs", ctypes.c_uint64)]


class _PathBeneathAttr(ctypes.Structure):
    _pack_ = 1  # packed in the kernel's header
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def unavailable() -> str | None:
    """Why this kernel cannot apply the ruleset, or None if it can."""
    version = _libc.syscall(SYS_LANDLOCK_CREATE_RULESET, None, 0, LANDLOCK_CREATE_RULESET_VERSION)
    if version >= 1:
        return None
    error = ctypes.get_errno()
    if error == errno.EOPNOTSUPP:
        return "Landlock: not enabled in this kernel (add landlock to its lsm= boot option)"
    return f"Landlock: {os.strerror(error)} (Linux 5.13 or later has it)"


def _check(result: int, what: str) -> int:
    if result < 0:
        raise SandboxUnavailable(f"Landlock {what}: {os.strerror(ctypes.get_errno())}")
    return result


def _allow(ruleset: int, path: str, directory_access: int) -> None:
    """Let ``path`` be read, and beneath it when it is a directory (followed if a link)."""
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except FileNotFoundError:
        return  # a process folder's entry the kernel does not offer here
    try:
        directory = stat.S_ISDIR(os.fstat(fd).st_mode)
        rule = _PathBeneathAttr(directory_access if directory else READ_FILE, fd)
        _check(
            _libc.syscall(
                SYS_LANDLOCK_ADD_RULE, ruleset, LANDLOCK_RULE_PATH_BENEATH, ctypes.byref(rule), 0
            ),
            f"rule for {path}",
        )
    finally:
        os.close(fd)


def hide_mount_tables() -> None:
    """Restrict this process and its future children for good (called in the new root).

    Raises ``SandboxUnavailable`` when the kernel has no Landlock or refuses a rule.
    """
    attr = _RulesetAttr(READ_FILE | READ_DIR)
    ruleset = _check(
        _libc.syscall(SYS_LANDLOCK_CREATE_RULESET, ctypes.byref(attr), ctypes.sizeof(attr), 0),
        "ruleset",
    )
    try:
        _allow(ruleset, "/", READ_DIR)
        for entry in os.listdir("/"):
            if entry != "proc":
                _allow(ruleset, f"/{entry}", READ_FILE | READ_DIR)
        for entry in READABLE_IN_PROC:
            _allow(ruleset, f"/proc/self/{entry}", READ_FILE | READ_DIR)
        _check(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
        _check(_libc.syscall(SYS_LANDLOCK_RESTRICT_SELF, ruleset, 0), "restrict_self")
    finally:
        os.close(ruleset)
