"""A seccomp-bpf filter that refuses the system calls a grading never needs.

The filter is a deny list on top of the other layers: namespaces already hide the network
and the file system, but some kernel interfaces are not namespaced (vsock sockets, ptrace of
another process with the same uid, keyrings, io_uring, bpf) or could undo the isolation
(mount, unshare, setns, new user namespaces), or feed a count the kernel keeps per host user
or for the whole host (pipe pages, epoll watches, aio contexts, descriptors in flight), which
one sandbox could fill to signal another. Refused calls fail with EPERM, so Python raises
an ordinary ``PermissionError`` instead of dying. ``clone3`` and ``statx`` fail with ENOSYS,
as on a kernel without them, so that libc falls back to calls the filter can inspect or that
tell less (``UNSUPPORTED_X86_64``). Where no cgroup bounds the memory of a submission's
processes together (not root), a second program also refuses every new process but threads,
and pipes, which then could join no two processes.

Built by hand (no libseccomp) for x86_64; on another architecture ``install`` raises
``SandboxUnavailable`` and the strict sandbox refuses to run.
"""

from __future__ import annotations

import ctypes
import errno
import platform
import struct

from graders.errors import SandboxUnavailable

AUDIT_ARCH_X86_64 = 0xC000003E
X32_SYSCALL_BIT = 0x40000000

SECCOMP_RET_KILL_PROCESS = 0x80000000
SECCOMP_RET_ERRNO = 0x00050000
SECCOMP_RET_ALLOW = 0x7FFF0000

PR_SET_NO_NEW_PRIVS = 38
PR_SET_SECCOMP = 22
SECCOMP_MODE_FILTER = 2

# BPF opcodes
LD_W_ABS = 0x20
JEQ_K = 0x15
JGE_K = 0x35
JSET_K = 0x45
RET_K = 0x06

# offsets in struct seccomp_data
NR = 0
ARCH = 4
ARG0_LOW = 16
ARG1_LOW = 24
ARG2_LOW = 32
ARG5_LOW = 56

CLONE_NAMESPACE_FLAGS = (
    0x00020000  # CLONE_NEWNS
    | 0x02000000  # CLONE_NEWCGROUP
    | 0x04000000  # CLONE_NEWUTS
    | 0x08000000  # CLONE_NEWIPC
    | 0x10000000  # CLONE_NEWUSER
    | 0x20000000  # CLONE_NEWPID
    | 0x40000000  # CLONE_NEWNET
)

DENIED_X86_64 = {
    "socket": 41,
    "socketpair": 53,
    "ptrace": 101,
    "syslog": 103,
    "personality": 135,
    "pivot_root": 155,
    "chroot": 161,
    "acct": 163,
    "mount": 165,
    "umount2": 166,
    "swapon": 167,
    "swapoff": 168,
    "reboot": 169,
    "sethostname": 170,
    "setdomainname": 171,
    "iopl": 172,
    "ioperm": 173,
    "init_module": 175,
    "delete_module": 176,
    "quotactl": 179,
    "kexec_load": 246,
    "add_key": 248,
    "request_key": 249,
    "keyctl": 250,
    "unshare": 272,
    "move_pages": 279,
    "perf_event_open": 298,
    "name_to_handle_at": 303,
    "open_by_handle_at": 304,
    "setns": 308,
    "process_vm_readv": 310,
    "process_vm_writev": 311,
    "kcmp": 312,
    "finit_module": 313,
    "kexec_file_load": 320,
    "bpf": 321,
    "userfaultfd": 323,
    "io_uring_setup": 425,
    "io_uring_enter": 426,
    "io_uring_register": 427,
    "open_tree": 428,
    "move_mount": 429,
    "fsopen": 430,
    "fsconfig": 431,
    "fsmount": 432,
    "fspick": 433,
    "pidfd_getfd": 438,
    "mount_setattr": 442,
    "process_madvise": 440,
    # Memory no process's RLIMIT_AS counts: memfd files and System V shared memory (and the
    # rest of System V IPC, which a numpy exercise never needs).
    "memfd_create": 319,
    "memfd_secret": 447,
    "shmget": 29,
    "shmat": 30,
    "shmctl": 31,
    "shmdt": 67,
    "semget": 64,
    "semop": 65,
    "semctl": 66,
    "semtimedop": 220,
    "msgget": 68,
    "msgsnd": 69,
    "msgrcv": 70,
    "msgctl": 71,
    # Host-wide counters (free memory, load, processes; a file system's free blocks): two
    # submissions running at once could signal each other through them, as through /proc's.
    "sysinfo": 99,
    "ustat": 136,
    # The mount table, which /proc keeps from the sandbox too (``landlock.py``).
    "statmount": 457,
    "listmount": 458,
    # Locks and change notifications on files other sandboxes can see (the read-only binds):
    # two cooperating submissions could signal each other through them.
    "flock": 73,
    "inotify_init": 253,
    "inotify_add_watch": 254,
    "inotify_init1": 294,
    "fanotify_init": 300,
    # Which pages of a file are in the host's page cache, and making them so or not: shared
    # with every other sandbox (the read-only binds), a channel between submissions.
    "fadvise64": 221,
    "readahead": 187,
    "mincore": 27,
    "cachestat": 451,
    # Counts the kernel keeps per host user (not root, every sandbox runs as the service's own
    # user) or for the whole host, which one sandbox could fill and another find full: epoll
    # watches (fs.epoll.max_user_watches; the service's own event loop counts there too),
    # asynchronous I/O contexts (fs.aio-max-nr, host-wide; io_setup makes the context every
    # other io_* call needs), descriptors in flight over the channel (SCM_RIGHTS, per user
    # against RLIMIT_NOFILE; the harness sends with ``sendall``, which is ``sendto``).
    "epoll_create": 213,
    "epoll_create1": 291,
    "io_setup": 206,
    "sendmsg": 46,
    "sendmmsg": 307,
}
FCNTL_X86_64 = 72
# fcntl commands that lock, lease or watch a file: F_GETLK, F_SETLK, F_SETLKW, the open file
# description locks F_OFD_GETLK/SETLK/SETLKW, F_SETLEASE, F_NOTIFY; and F_SETPIPE_SZ, which
# grows a pipe from the pipe pages its host user may hold (fs.pipe-user-pages-soft), the
# same allowance for every sandbox not root.
FCNTL_DENIED_COMMANDS = (5, 6, 7, 36, 37, 38, 1024, 1026, 1031)
MADVISE_X86_64 = 28
# madvise's paging hints, which load or evict a mapped file's pages: MADV_WILLNEED, MADV_COLD,
# MADV_PAGEOUT, MADV_POPULATE_READ. Allocators' hints (MADV_DONTNEED, MADV_FREE, ...) stay.
MADVISE_DENIED_ADVICE = (3, 20, 21, 22)
# preadv2 and pwritev2 with RWF_NOWAIT, which fail rather than wait for a page not cached.
READ_WRITE_V2_X86_64 = (327, 328)
RWF_NOWAIT = 0x8
CLONE_X86_64 = 56
CLONE_THREAD = 0x00010000
NEW_PROCESS_X86_64 = {"fork": 57, "vfork": 58}
"""Refused, with ``clone`` without ``CLONE_THREAD``, where a submission must stay one process."""
PIPE_X86_64 = {"pipe": 22, "pipe2": 293}
"""Refused too where a submission is one process (not root), whose threads need no pipe: every
pipe holds 16 pages of its host user's allowance (fs.pipe-user-pages-soft, 16 384), which all
the sandboxes of that user share, and past which new pipes get 2. At 59 pipes a sandbox,
18 sandboxes at once would cross it (a host of 16 cores grades 18 at once by default)."""
UNSUPPORTED_X86_64 = {
    # So that libc falls back to ``clone``, whose flags the filter can inspect.
    "clone3": 435,
    # Its answer carries a mount id, which the kernel hands out host-wide, lowest free first,
    # so that it tells which other sandboxes are alive; libc and Python fall back to fstatat.
    "statx": 332,
}


def _insn(code: int, jt: int, jf: int, k: int) -> bytes:
    return struct.pack("HBBI", code, jt, jf, k)


def build_filter(*, one_process: bool = False) -> bytes:
    """The filter program for x86_64 as raw ``sock_filter`` instructions.

    ``one_process``: also refuse every new process, threads aside (``clone`` with
    ``CLONE_THREAD``, which shares the address space), and pipes. Where no cgroup bounds the
    memory of all a submission's processes together (not root), the address-space limit of
    its one process then bounds the whole submission.
    """
    errno_eperm = SECCOMP_RET_ERRNO | errno.EPERM
    program = [
        _insn(LD_W_ABS, 0, 0, ARCH),
        _insn(JEQ_K, 1, 0, AUDIT_ARCH_X86_64),
        _insn(RET_K, 0, 0, SECCOMP_RET_KILL_PROCESS),
        _insn(LD_W_ABS, 0, 0, NR),
        # x32 system calls reach the same kernel entry points with another numbering.
        _insn(JGE_K, 0, 1, X32_SYSCALL_BIT),
        _insn(RET_K, 0, 0, errno_eperm),
    ]
    for number in sorted(UNSUPPORTED_X86_64.values()):
        program += [
            _insn(JEQ_K, 0, 1, number),
            _insn(RET_K, 0, 0, SECCOMP_RET_ERRNO | errno.ENOSYS),
        ]
    denied = {**DENIED_X86_64, **(NEW_PROCESS_X86_64 | PIPE_X86_64 if one_process else {})}
    for number in sorted(denied.values()):
        program += [_insn(JEQ_K, 0, 1, number), _insn(RET_K, 0, 0, errno_eperm)]
    # fcntl: refuse the locking commands, allow the rest (F_GETFD, F_SETFL, ...).
    commands = len(FCNTL_DENIED_COMMANDS)
    program += [_insn(JEQ_K, 0, commands + 3, FCNTL_X86_64), _insn(LD_W_ABS, 0, 0, ARG1_LOW)]
    for position, command in enumerate(FCNTL_DENIED_COMMANDS):
        program.append(_insn(JEQ_K, commands - position, 0, command))
    program += [_insn(RET_K, 0, 0, SECCOMP_RET_ALLOW), _insn(RET_K, 0, 0, errno_eperm)]
    advice = len(MADVISE_DENIED_ADVICE)
    program += [_insn(JEQ_K, 0, advice + 3, MADVISE_X86_64), _insn(LD_W_ABS, 0, 0, ARG2_LOW)]
    for position, value in enumerate(MADVISE_DENIED_ADVICE):
        program.append(_insn(JEQ_K, advice - position, 0, value))
    program += [_insn(RET_K, 0, 0, SECCOMP_RET_ALLOW), _insn(RET_K, 0, 0, errno_eperm)]
    for number in READ_WRITE_V2_X86_64:
        program += [
            _insn(JEQ_K, 0, 4, number),  # another call: past this block, the number still in A
            _insn(LD_W_ABS, 0, 0, ARG5_LOW),
            _insn(JSET_K, 0, 1, RWF_NOWAIT),
            _insn(RET_K, 0, 0, errno_eperm),
            _insn(RET_K, 0, 0, SECCOMP_RET_ALLOW),
        ]
    # clone: refuse new namespaces; with ``one_process``, anything but a thread.
    threads_only = [_insn(JSET_K, 1, 0, CLONE_THREAD), _insn(RET_K, 0, 0, errno_eperm)]
    checks = [
        _insn(LD_W_ABS, 0, 0, ARG0_LOW),
        _insn(JSET_K, 0, 1, CLONE_NAMESPACE_FLAGS),
        _insn(RET_K, 0, 0, errno_eperm),
        *(threads_only if one_process else []),
    ]
    program += [
        _insn(JEQ_K, 0, len(checks), CLONE_X86_64),  # another call: to the final allow
        *checks,
        _insn(RET_K, 0, 0, SECCOMP_RET_ALLOW),
    ]
    return b"".join(program)


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


class _Filter:
    """A filter program in memory, built once when the zygote imports this module."""

    def __init__(self, program: bytes) -> None:
        self.buffer = ctypes.create_string_buffer(program, len(program))
        self.fprog = _SockFprog(len(program) // 8, ctypes.addressof(self.buffer))


_FILTERS = {
    one_process: _Filter(build_filter(one_process=one_process)) for one_process in (False, True)
}
_libc = ctypes.CDLL(None, use_errno=True)


def install(*, one_process: bool = False) -> None:
    """Set no_new_privs and install the filter on the calling thread (irreversible)."""
    if platform.machine() != "x86_64":
        raise SandboxUnavailable(f"seccomp filter: no system call table for {platform.machine()}")
    if _libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise SandboxUnavailable(f"prctl(NO_NEW_PRIVS): {ctypes.get_errno()}")
    fprog = _FILTERS[one_process].fprog
    if _libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) != 0:
        raise SandboxUnavailable(f"seccomp filter refused: errno {ctypes.get_errno()}")
