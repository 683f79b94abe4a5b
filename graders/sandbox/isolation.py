"""The isolation layers a grading process enters before it reads a submission.

Each function is one layer; ``docs/sandbox.md`` says what each protects against. The
root image is built in memory once per process (``shared_image``); the zygote
calls ``prepare_root`` once and ``next_child_in_new_pid_namespace`` per sandbox; the sandbox's
first process (PID 1 of that namespace) then calls ``enter_namespaces`` -> ``enter_root`` ->
``set_hostname`` -> ``drop_privileges`` -> ``die_with_parent`` -> Landlock, all of which a spare
enters before its request (``zygote.first_layers``), then ``set_resource_limits`` ->
``close_other_fds`` -> seccomp.

Not root, the zygote first enters a user namespace of its own (``enter_user_namespace``), in
which it holds the capabilities the other layers need, over its own namespaces only.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import resource
import signal
import sys
from pathlib import Path

from graders.errors import SandboxUnavailable
from graders.sandbox.limits import SandboxLimits

CLONE_NEWNS = 0x00020000
CLONE_NEWUSER = 0x10000000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000

MS_RDONLY = 1
MS_NOSUID = 2
MS_NODEV = 4
MS_NOEXEC = 8
MS_REMOUNT = 32
MS_BIND = 4096
MS_REC = 16384
MS_PRIVATE = 1 << 18
MNT_DETACH = 2
PR_SET_PDEATHSIG = 1
PR_CAPBSET_DROP = 24
PR_CAP_AMBIENT = 47
PR_CAP_AMBIENT_CLEAR_ALL = 4
LINUX_CAPABILITY_VERSION_3 = 0x20080522
LAST_CAPABILITY = 63
SYS_PIVOT_ROOT_X86_64 = 155

DEVICES = ("/dev/null", "/dev/zero", "/dev/urandom", "/dev/random")
WRITABLE_DIRS = ("/tmp", "/dev/shm", "/sandbox")
WORKDIR = "/sandbox"

_libc = ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        error = ctypes.get_errno()
        raise SandboxUnavailable(f"{what}: {os.strerror(error)}")


def _mount(
    source: str | None, target: str, fstype: str | None, flags: int, data: str | None = None
) -> None:
    _check(
        _libc.mount(
            source.encode() if source else None,
            target.encode(),
            fstype.encode() if fstype else None,
            flags,
            data.encode() if data else None,
        ),
        f"mount {target}",
    )


def rootless() -> bool:
    return os.geteuid() != 0


def enter_user_namespace(inner_id: int) -> None:
    """Rootless: a user namespace in which the invoking user is ``inner_id`` and nobody else.

    The zygote keeps every capability there, but only over the namespaces it creates from
    now on; the host sees nothing but the invoking user. Fails where the kernel refuses
    unprivileged user namespaces (``docs/sandbox.md`` says what to change).
    """
    uid, gid = os.getuid(), os.getgid()
    _check(_libc.unshare(CLONE_NEWUSER), "unshare (user namespace)")
    try:
        Path("/proc/self/setgroups").write_text("deny")
        Path("/proc/self/uid_map").write_text(f"{inner_id} {uid} 1")
        Path("/proc/self/gid_map").write_text(f"{inner_id} {gid} 1")
    except OSError as exc:
        raise SandboxUnavailable(f"user namespace id maps: {exc.strerror}") from exc


def enter_pid_namespace_as_init() -> bool:
    """Rootless: fork into a fresh PID namespace owned by the user namespace.

    Returns True in the child, which goes on as PID 1 of that namespace (as the zygote, it
    may then make a fresh PID namespace for each sandbox: only over namespaces owned by its
    user namespace may it do that). The parent only waits for it and ends with it; the child
    dies when the parent is killed.
    """
    _check(_libc.unshare(CLONE_NEWPID), "unshare (PID namespace)")
    pid = os.fork()
    if pid == 0:
        die_with_parent()
        return True
    return False


def enter_network_namespace() -> None:
    """The zygote's own empty network namespace: no interface but a loopback that is down.

    Its sandboxes inherit it. A zygote runs one sandbox at a time, and without capabilities
    a sandbox can leave nothing behind in the namespace (its sockets die with it), so sharing
    it costs no isolation and saves creating and tearing down one per submission.
    """
    _check(_libc.unshare(CLONE_NEWNET), "unshare (network namespace)")


def own_pid_namespace() -> int:
    """A descriptor of this process's PID namespace, for :func:`next_child_in_new_pid_namespace`."""
    return os.open("/proc/self/ns/pid", os.O_RDONLY | os.O_CLOEXEC)


def next_child_in_new_pid_namespace(own_namespace: int) -> None:
    """Make the next forked child PID 1 of a fresh PID namespace (called once per sandbox).

    The kernel lets a process choose a new namespace for its children only while they would
    be born in its own, so the choice is first reset to ``own_namespace``.
    """
    _check(_libc.setns(own_namespace, CLONE_NEWPID), "setns (PID namespace)")
    _check(_libc.unshare(CLONE_NEWPID), "unshare (PID namespace)")


def enter_namespaces() -> None:
    """New IPC and UTS namespaces: no shared memory, semaphores or hostname of the host."""
    _check(_libc.unshare(CLONE_NEWIPC | CLONE_NEWUTS), "unshare (IPC and UTS namespaces)")


def die_with_parent() -> None:
    """SIGKILL this process when the zygote dies (set after the uid change, which clears it)."""
    _check(_libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0), "prctl (parent-death signal)")


def python_roots() -> list[str]:
    """The folders the interpreter and its packages live in."""
    roots = {sys.base_prefix, sys.prefix, sys.base_exec_prefix, sys.exec_prefix}
    return sorted(root for root in roots if root and os.path.isdir(root))


def roots_under(folders: tuple[str, ...], roots: list[str]) -> list[str]:
    """The roots that lie inside one of ``folders`` (a virtualenv in /tmp, say)."""
    return [
        root
        for root in roots
        if any(root == folder or root.startswith(folder + "/") for folder in folders)
    ]


def enter_mount_namespace() -> None:
    """A mount namespace of this process's own, where nothing it mounts reaches the host."""
    _check(_libc.unshare(CLONE_NEWNS), "unshare (mount namespace)")
    _mount(None, "/", None, MS_REC | MS_PRIVATE)


def mount_image_tmpfs(mountpoint: str) -> None:
    """The tmpfs the root image is copied into (``shared_image``): memory, no disk behind it."""
    _mount("tmpfs", mountpoint, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755")


def finish_image(mountpoint: str) -> None:
    """Add to the copied image the few devices and the empty mount points, then make it
    read-only: the skeleton every sandbox's root is made from."""
    root = Path(mountpoint)
    for device in DEVICES:
        target = root / device.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.touch()
        _mount(device, str(target), None, MS_BIND)
    for folder in (*WRITABLE_DIRS, "/proc"):
        (root / folder.lstrip("/")).mkdir(parents=True, exist_ok=True)
    # Its size shrunk to what it holds: ``statfs`` in a sandbox then tells nothing of the
    # host (a tmpfs's default size is half the host's memory).
    usage = os.statvfs(mountpoint)
    used = (usage.f_blocks - usage.f_bfree) * usage.f_frsize
    _mount(None, mountpoint, None, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV, f"size={used}")


FAVOR_MOVES_HIERARCHY = "numjudge-moves"
"""The cgroup v1 hierarchy, of no controller, whose mount option turns ``favordynmods`` on."""


def favor_cgroup_moves(mountpoint: str) -> None:
    """Make every move of a process into a cgroup of this host skip the wait for an RCU grace
    period, for a little more work in each fork and exit (Linux's ``favordynmods``, 6.0 and
    later; docs/sandbox.md, "What the cgroup costs"). The option belongs to the kernel's one
    lock over every hierarchy, so mounting a hierarchy of no controller with it, at
    ``mountpoint``, is enough: it holds while that hierarchy exists, and for good on a kernel
    that cannot turn it off again (seen on 6.18). Raises
    ``SandboxUnavailable`` where the kernel does not know the option or refuses the mount."""
    _mount(
        "cgroup",
        mountpoint,
        "cgroup",
        MS_NOSUID | MS_NODEV | MS_NOEXEC,
        f"none,name={FAVOR_MOVES_HIERARCHY},favordynmods",
    )


def join_namespaces(descriptors: list[int]) -> None:
    """Join the namespaces open on ``descriptors``, in their order (a user namespace first)."""
    for descriptor in descriptors:
        _check(_libc.setns(descriptor, 0), "setns (the root image's namespaces)")


def bind_image(image: str, mountpoint: str) -> None:
    """Show the image mounted on ``image`` on ``mountpoint`` too, read-only: the same pages."""
    _bind_readonly(image, mountpoint)


def bind_image_over_host(mountpoint: str, folders: list[str]) -> None:
    """In this mount namespace, show the image's copy of each host folder in its place."""
    for folder in folders:
        _bind_readonly(str(Path(mountpoint) / folder.lstrip("/")), folder)


def prepare_root(mountpoint: str) -> None:
    """Once per zygote: make the image on ``mountpoint`` a mount of the zygote's own.

    The zygote enters a mount namespace of its own and binds the image onto itself: not
    root, the image was mounted in the namespace of the stage before (``boot``), and
    ``pivot_root`` refuses a mount inherited from a namespace of more privilege. Nothing but
    the image will be visible in a sandbox: not the project folder (exercises, solutions,
    the database), not other submissions, not the host's /usr, /tmp, /dev/shm or /run
    (where PostgreSQL's and Redis's unix sockets live).
    """
    enter_mount_namespace()
    _bind_readonly(mountpoint, mountpoint)


def enter_root(mountpoint: str, tmpfs_mb: int) -> None:
    """Pivot into a copy of the skeleton, with fresh writable /tmp, /dev/shm and /sandbox.

    Called by the sandbox's PID 1: its new mount namespace is a private copy of the
    zygote's, so nothing it mounts or writes reaches another sandbox.
    """
    _check(_libc.unshare(CLONE_NEWNS), "unshare (mount namespace)")
    root = Path(mountpoint)
    for folder in WRITABLE_DIRS:
        _mount(
            "tmpfs",
            str(root / folder.lstrip("/")),
            "tmpfs",
            MS_NOSUID | MS_NODEV,
            f"size={tmpfs_mb}m,mode=1777,nr_inodes=4096",
        )
    # A fresh /tmp hides a Python root that lives inside it (a checkout in /tmp): bind it again.
    for source in roots_under(WRITABLE_DIRS, python_roots()):
        target = root / source.lstrip("/")
        target.mkdir(parents=True, exist_ok=True)
        _bind_readonly(source, str(target))
    # The old root is parked on /tmp, over the fresh tmpfs, while this PID namespace's procfs
    # is mounted (in a user namespace the kernel allows that only while another procfs is
    # fully visible), then detached: no stray folder is left in the read-only skeleton.
    _check(
        _libc.syscall(SYS_PIVOT_ROOT_X86_64, mountpoint.encode(), str(root / "tmp").encode()),
        "pivot_root",
    )
    os.chdir("/")
    # Only the folders of this PID namespace's processes: the rest of a procfs (meminfo,
    # vmstat, diskstats, loadavg, stat, sys, ...) counts for the whole host, and two
    # submissions running at once could signal each other through it.
    _mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, "subset=pid")
    _check(_libc.umount2(b"/tmp", MNT_DETACH), "umount old root")
    os.chdir(WORKDIR)


def _bind_readonly(source: str, target: str) -> None:
    _mount(source, target, None, MS_BIND | MS_REC)
    _mount(None, target, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV)


def set_hostname() -> None:
    _check(_libc.sethostname(b"sandbox", 7), "sethostname")


def set_resource_limits(limits: SandboxLimits) -> None:
    """Each limit, soft and hard, at most what the process already has: it runs with no
    privilege by now (``zygote.first_layers``), and a host's own lower limit still holds."""
    mb = 1024 * 1024
    for name, value in (
        (resource.RLIMIT_AS, limits.memory_mb * mb),
        (resource.RLIMIT_CPU, limits.cpu_s),
        (resource.RLIMIT_FSIZE, limits.max_file_mb * mb),
        (resource.RLIMIT_STACK, limits.stack_mb * mb),
        (resource.RLIMIT_NPROC, limits.max_processes),
        (resource.RLIMIT_NOFILE, limits.max_open_files),
        (resource.RLIMIT_CORE, 0),
        (resource.RLIMIT_MEMLOCK, 0),
        (resource.RLIMIT_MSGQUEUE, 0),
        # No queued signal (sigqueue, POSIX timers): the kernel counts them per host user, so
        # a sandbox not root could fill its user's allowance. Ordinary signals still arrive.
        (resource.RLIMIT_SIGPENDING, 0),
    ):
        hard = resource.getrlimit(name)[1]
        if hard != resource.RLIM_INFINITY:
            value = min(value, hard)
        resource.setrlimit(name, (value, value))


def lower_cpu_priority() -> None:
    """Leave the CPU to every other process: this sandbox's work can wait.

    The lowest nice and the idle policy rank it below the others wherever it shares a CPU
    queue with them; a session of its own gives it an autogroup of its own, which otherwise
    competes as an equal with the service's (the zygote's cgroup, where there is one, gets a
    low weight too: ``cgroups``). Best effort: nothing here can raise the priority again.
    """
    os.setsid()
    os.setpriority(os.PRIO_PROCESS, 0, 19)
    os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    with contextlib.suppress(OSError):  # autogroups are a kernel option
        Path("/proc/self/autogroup").write_text("19")


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [
        ("effective", ctypes.c_uint32),
        ("permitted", ctypes.c_uint32),
        ("inheritable", ctypes.c_uint32),
    ]


def drop_privileges(uid: int) -> None:
    """Become the slot's uid/gid with no supplementary groups and no capability at all.

    As root the uid change clears the capabilities; in a user namespace the uid does not
    change, so they are cleared explicitly (bounding set first, while CAP_SETPCAP is held).
    A user namespace also forbids dropping supplementary groups (``setgroups`` is denied
    there so that nobody can drop a group used to deny access); they map to nobody inside.
    """
    for capability in range(LAST_CAPABILITY + 1):
        if _libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) != 0:
            if ctypes.get_errno() == errno.EINVAL:
                break  # past the kernel's last capability: capabilities are numbered densely
            _check(-1, "prctl (capability bounding set)")
    _libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    if not rootless():
        os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    header = _CapHeader(LINUX_CAPABILITY_VERSION_3, 0)
    _check(_libc.capset(ctypes.byref(header), (_CapData * 2)()), "capset")
    if os.geteuid() == 0 or os.getegid() == 0:
        raise SandboxUnavailable("could not drop root privileges")


def close_other_fds(keep: tuple[int, ...]) -> None:
    """Close every inherited descriptor but ``keep``; stdio goes to /dev/null."""
    null = os.open("/dev/null", os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)
    low = 3
    for fd in sorted(keep):
        os.closerange(low, fd)
        low = fd + 1
    os.closerange(low, 1 << 16)


SANDBOX_ENVIRONMENT = {
    "HOME": "/tmp",
    "TMPDIR": "/tmp",
    "LANG": "C.UTF-8",
    "PATH": "/usr/bin:/bin",
    "OPENBLAS_NUM_THREADS": "1",
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
}


def scrub_environment() -> None:
    """Make the sandbox's environment this process's whole environment.

    The zygote does it once, after numpy has read its thread settings: every sandbox it forks
    inherits it, so no sandbox pays for it again.
    """
    os.environ.clear()
    os.environ.update(SANDBOX_ENVIRONMENT)
