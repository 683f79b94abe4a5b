"""The zygote: a warm, single-threaded process that forks one sandbox per submission.

Started by its first stage (``boot``, itself started by the trusted side with a scrubbed
environment), from the root image that stage built in memory, it imports numpy and the
harness once, then waits on its control socket. A request carries the
sandbox limits and, as an SCM_RIGHTS descriptor, one end of the submission's channel; the
zygote never reads the submission's code itself.

Per request the zygote forks the sandbox's PID 1 into a fresh PID namespace and moves it into
the slot's cgroup, while PID 1 enters new IPC and UTS namespaces, builds its private root,
drops to the slot's uid, asks to die with the zygote, enters Landlock, sets rlimits and
installs seccomp; only once the zygote says the move is done does PID 1 read the code from
the channel. Mostly that PID 1 was forked ahead, as the zygote started or once the last
sandbox ended (a *spare*, ``spare_main``): it entered every layer up to Landlock while nobody
waited (``first_layers``), and the request only hands it the limits and the channel, on a
socket of its own, for the rest (``other_layers``).
The zygote enforces the time limits (``watch.py``): killing PID 1 ends every process of the
namespace. Its exit status tells the zygote, and through it the trusted side, how the sandbox
ended; with it goes what the sandbox used (``usage.py``).

Messages on the control socket, one JSON object each: from the trusted side a request
``{"limits"}`` with the channel's descriptor, or ``{"query": "usage"}``; from the zygote
``{"ready", ...}`` once (its state folder and cgroups among what it says, for the trusted side
to check before each request), then per request ``{"exit": code, "usage"}``, and per query
``{"usage"}``: the usage so far of the running sandbox (where a cgroup counts it; otherwise
the answer waits for the sandbox's end, just after the exit), or the last one's if it ended.
A CPU query ``{"query": "cpu", "limit_s"}`` is answered at once with ``{"cpu_s"}``, the CPU
time the running sandbox used so far (the watch's own reading), and with a ``limit_s`` also
stops the sandbox once it used that much more (a case's own time limit; ``None`` lifts it).
"""

from __future__ import annotations

import array
import contextlib
import gc
import json
import logging
import os
import signal
import socket
import sys
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

# numpy imported once here so that every fork starts warm; numpy.random too, which numpy
# loads on first use: 90 ms in each sandbox that met an input or output other than an array
# (the harness and the wire look for generators by type).
import numpy.random  # noqa: F401

from graders.errors import SandboxUnavailable
from graders.sandbox import harness, isolation, landlock, seccomp
from graders.sandbox.cgroups import SlotCgroup
from graders.sandbox.exitcodes import EXIT_MEMORY_LIMIT, EXIT_SETUP_FAILED, EXIT_STARVED
from graders.sandbox.launch import IMAGE_FAILED
from graders.sandbox.limits import CpuPriority, SandboxLimits
from graders.sandbox.state import StateFolder, claim_uid
from graders.sandbox.usage import Meter, Usage
from graders.sandbox.watch import CpuCeiling, watch
from graders.sandbox.wire import send_frame

logger = logging.getLogger(__name__)

MAX_CONTROL_BYTES = 64 * 1024


def receive_request(control: socket.socket) -> tuple[dict[str, Any], int | None] | None:
    """The next message and the channel it carries (None for a query); None once closed."""
    fds = array.array("i")
    data, ancillary, _flags, _addr = control.recvmsg(
        MAX_CONTROL_BYTES, socket.CMSG_SPACE(fds.itemsize)
    )
    if not data:
        return None
    for level, kind, payload in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(payload[: len(payload) - len(payload) % fds.itemsize])
    message = json.loads(data)
    if "query" in message and not fds:
        return message, None
    if len(fds) != 1:
        raise RuntimeError("a request must carry exactly one channel descriptor")
    return message, fds[0]


def send_usage(control: socket.socket, usage: Usage | None) -> None:
    control.sendall(json.dumps({"usage": usage and usage.to_message()}).encode())


def send_cpu(control: socket.socket, cpu_s: float) -> None:
    control.sendall(json.dumps({"cpu_s": cpu_s}).encode())


Layer = Callable[[], object]


def first_layers(setup: ZygoteSetup, tmpfs_mb: int) -> tuple[Layer, ...]:
    """The layers that need nothing of the request but its private root's size, in order: a
    spare (``spare_main``) enters them before its request comes. What comes after needs no
    privilege: resource limits are only lowered, descriptors closed, the filter installed
    under ``no_new_privs``."""
    return (
        isolation.enter_namespaces,
        lambda: isolation.enter_root(setup.root_mountpoint, tmpfs_mb),
        isolation.set_hostname,
        lambda: isolation.drop_privileges(setup.uid),
        isolation.die_with_parent,  # after the uid change, which clears it
        landlock.hide_mount_tables if setup.landlock else lambda: None,
    )


def other_layers(
    limits: SandboxLimits, setup: ZygoteSetup, keep: tuple[int, ...]
) -> tuple[Layer, ...]:
    """The rest, in order, ``keep`` the descriptors left open."""
    return (
        lambda: isolation.set_resource_limits(limits),
        lambda: isolation.close_other_fds(keep),
        # No cgroup bounds all its processes together: a submission stays one process.
        lambda: seccomp.install(one_process=setup.cgroup is None),
    )


def enter_layers(layers: Iterable[Layer], strict: bool) -> OSError | SandboxUnavailable | None:
    """Each of ``layers``, in order: the first failure raised when ``strict``, else each
    skipped and the first returned."""
    failed = None
    for layer in layers:
        try:
            layer()
        except (OSError, SandboxUnavailable) as exc:
            if strict:
                raise
            failed = failed or exc
    return failed


def sandbox_main(
    channel_fd: int, ready_fd: int, joined_fd: int, limits: SandboxLimits, setup: ZygoteSetup
) -> NoReturn:
    """PID 1 of the sandbox, forked for its request: isolate, then serve the request."""
    keep = (channel_fd, ready_fd, joined_fd)
    layers = (*first_layers(setup, limits.tmpfs_mb), *other_layers(limits, setup, keep))
    set_up_and_serve(socket.socket(fileno=channel_fd), limits, layers, ready_fd, joined_fd)


def spare_main(
    go_fd: int, ready_fd: int, joined_fd: int, tmpfs_mb: int, setup: ZygoteSetup
) -> NoReturn:
    """PID 1 of the next sandbox, forked before its request: it enters the layers that need
    no request, then waits on ``go_fd`` for the request's limits and channel, and goes on as
    ``sandbox_main`` would (a first layer that failed counts as it would there); the zygote
    closing ``go_fd`` ends it. Taken out of the grading's path: the fork, the namespaces, the
    private root, the uid change and Landlock (docs/sandbox.md)."""
    try:
        # Now, not only after the uid change: an idle spare must die with its zygote too. A
        # zygote that died before this line closed its end of ``go_fd``: that ends it below.
        isolation.die_with_parent()
    except OSError:
        os._exit(EXIT_SETUP_FAILED)
    failed = enter_layers(first_layers(setup, tmpfs_mb), strict=False)
    with socket.socket(fileno=go_fd) as go:
        received = receive_request(go)
    if received is None:
        os._exit(0)  # not needed: the zygote closed it
    request, channel_fd = received
    if channel_fd is None:
        os._exit(EXIT_SETUP_FAILED)
    limits = SandboxLimits.from_dict(request["limits"])
    layers = other_layers(limits, setup, keep=(channel_fd, ready_fd, joined_fd))
    set_up_and_serve(socket.socket(fileno=channel_fd), limits, layers, ready_fd, joined_fd, failed)


def set_up_and_serve(
    channel: socket.socket,
    limits: SandboxLimits,
    layers: Iterable[Layer],
    ready_fd: int,
    joined_fd: int,
    failed: OSError | SandboxUnavailable | None = None,
) -> NoReturn:
    """Enter ``layers`` (``failed``: a layer entered before them failed), wait for the
    zygote's word that this process is in the slot's cgroup, then serve the request. The
    zygote makes that move as the request comes, while the layers are entered
    (``run_sandbox``), so an idle slot's cgroup stays empty and can be removed; nothing is
    read from the channel before the word."""
    try:
        if failed is not None and limits.strict:
            raise failed
        if limits.priority is CpuPriority.BACKGROUND:
            isolation.lower_cpu_priority()
        enter_layers(layers, limits.strict)
        if os.read(joined_fd, 1) != b"1":
            raise SandboxUnavailable(NOT_JOINED)
        os.close(joined_fd)
    except (OSError, SandboxUnavailable) as exc:
        set_up_failed(channel, exc)
    serve_once_ready(channel, ready_fd, limits)


NOT_JOINED = "cgroup: the sandbox could not join its slot's cgroup"


def set_up_failed(channel: socket.socket, exc: OSError | SandboxUnavailable) -> NoReturn:
    send_frame(channel, {"kind": "setup_error", "message": f"sandbox setup: {exc}"})
    os._exit(EXIT_SETUP_FAILED)


def serve_once_ready(channel: socket.socket, ready_fd: int, limits: SandboxLimits) -> NoReturn:
    """Say that setup succeeded, then serve the request."""
    # Written before any submitted code runs: the zygote's proof that setup succeeded. It
    # fails if the zygote died before the parent-death signal was set: then stop here.
    try:
        os.write(ready_fd, b"1")
    except BrokenPipeError:
        os._exit(EXIT_SETUP_FAILED)
    os.close(ready_fd)
    try:
        harness.serve(channel, limits.max_stdout_chars)
    except BaseException:
        os._exit(1)
    os._exit(0)


@dataclass(frozen=True)
class ZygoteSetup:
    """What a zygote prepared once for all its sandboxes."""

    slot: int
    uid: int
    """The uid (and gid) its sandboxes run as."""
    root_mountpoint: str
    pid_namespace: int
    """A descriptor of the zygote's own PID namespace."""
    unavailable: tuple[str, ...] = ()
    """Layers that could not be set up (a strict sandbox refuses to run without them)."""
    cgroup: SlotCgroup | None = None
    """The budget of all of a sandbox's processes together, where cgroups can be made."""
    reduced: tuple[str, ...] = ()
    """Layers that are not required even of a strict sandbox but missing here, with why."""
    landlock: bool = False
    """Whether the kernel has Landlock, which hides the mount tables (``landlock.py``)."""
    image: str = ""
    """What the first stage said of the root image (``boot``)."""


def refuse(channel_fd: int, reason: str) -> int:
    send_frame(
        socket.socket(fileno=os.dup(channel_fd)),
        {"kind": "setup_error", "message": f"sandbox setup: {reason}"},
    )
    return EXIT_SETUP_FAILED


@dataclass(frozen=True)
class Ended:
    """How a sandbox ended, for the trusted side, and what is left to do about it."""

    code: int
    usage: Usage | None = None
    """None if no submitted code ran."""
    dying: int | None = None
    """The PID 1 of a sandbox killed at a limit, to be reaped once its end was reported."""
    query_waiting: bool = False
    """A usage query came while it ran and is answered with its final usage."""


@dataclass(frozen=True)
class Spare:
    """A sandbox's PID 1 forked before its request (``spare_main``), waiting on ``go``."""

    pid: int
    go: socket.socket
    ready_read: int
    joined_write: int
    tmpfs_mb: int
    """The size of the private root it made: a request that asks another does not take it."""


def fork_spare(setup: ZygoteSetup, tmpfs_mb: int) -> Spare | None:
    """The next sandbox's PID 1, forked now (moved into the slot's cgroup with its request);
    None where a sandbox forked for its request would be refused anyway (that path says why)."""
    if setup.unavailable:
        return None
    try:
        isolation.next_child_in_new_pid_namespace(setup.pid_namespace)
    except SandboxUnavailable:
        return None
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    pid, ready_read, joined_write = fork_pid1(
        lambda ready_write, joined_read: spare_main(
            theirs.fileno(), ready_write, joined_read, tmpfs_mb, setup
        ),
        close_in_child=(ours.fileno(),),
    )
    theirs.close()
    return Spare(pid, ours, ready_read, joined_write, tmpfs_mb)


def discard(spare: Spare) -> None:
    """End a spare nobody will use, and reap it."""
    spare.go.close()
    with contextlib.suppress(ProcessLookupError):
        os.kill(spare.pid, signal.SIGKILL)
    with contextlib.suppress(ChildProcessError):  # reaped already, by ``usable``
        os.waitpid(spare.pid, 0)
    os.close(spare.ready_read)
    os.close(spare.joined_write)


def usable(spare: Spare | None, limits: SandboxLimits) -> Spare | None:
    """``spare`` if it can serve a request with ``limits`` (discarded otherwise)."""
    if spare is None:
        return None
    if spare.tmpfs_mb == limits.tmpfs_mb and os.waitpid(spare.pid, os.WNOHANG) == (0, 0):
        return spare
    discard(spare)
    return None


def fork_pid1(
    main: Callable[[int, int], object], close_in_child: tuple[int, ...] = ()
) -> tuple[int, int, int]:
    """Fork a sandbox's PID 1 running ``main(ready_write, joined_read)``, which must not
    return; the PID and the zygote's ends of both pipes (``ready_read``, ``joined_write``)."""
    ready_read, ready_write = os.pipe()
    joined_read, joined_write = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        for fd in (ready_read, ready_write, joined_read, joined_write):
            os.close(fd)
        raise
    if pid == 0:
        try:
            for fd in (ready_read, joined_write, *close_in_child):
                os.close(fd)
            main(ready_write, joined_read)
        finally:
            os._exit(EXIT_SETUP_FAILED)
    os.close(ready_write)
    os.close(joined_read)
    return pid, ready_read, joined_write


def run_sandbox(
    channel_fd: int,
    limits: SandboxLimits,
    setup: ZygoteSetup,
    meter: Meter,
    control: socket.socket,
    spare: Spare | None = None,
) -> Ended:
    """Run one sandbox until it ended or was killed: ``spare`` (``usable`` for ``limits``),
    or a PID 1 forked now."""
    if limits.strict and setup.unavailable:
        return Ended(refuse(channel_fd, "; ".join(setup.unavailable)))
    if spare is None:
        try:
            isolation.next_child_in_new_pid_namespace(setup.pid_namespace)
        except SandboxUnavailable as exc:
            if limits.strict:
                return Ended(refuse(channel_fd, str(exc)))
    if setup.cgroup is not None:
        setup.cgroup.set_limits(limits)
        setup.cgroup.forget_out_of_memory_events()
        kills_before = setup.cgroup.out_of_memory_kills()
    meter.begin()
    if spare is None:
        pid, ready_read, joined_write = fork_pid1(
            lambda ready_write, joined_read: sandbox_main(
                channel_fd, ready_write, joined_read, limits, setup
            )
        )
        join_cgroup(pid, joined_write, setup.cgroup)
    else:
        pid, ready_read = spare.pid, spare.ready_read
        with spare.go:
            go = json.dumps({"limits": limits.to_dict()}).encode()
            descriptors = array.array("i", [channel_fd])
            with contextlib.suppress(OSError):  # a spare that died: its end says how
                spare.go.sendmsg([go], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, descriptors)])
        join_cgroup(pid, spare.joined_write, setup.cgroup)  # while it enters its other layers

    query_waiting = False
    ceiling = CpuCeiling()

    def answer() -> bool:
        # Only queries come while a sandbox runs. A CPU query, between two frames of a timed
        # case, is answered at once (the watch trusts the same reading) and may set the
        # case's own ceiling; a usage query comes once the trusted side has every result,
        # and does not wait for the sandbox's end unless only its end tells.
        nonlocal query_waiting
        data = control.recv(MAX_CONTROL_BYTES)
        if not data:
            return False
        query = json.loads(data)
        if query.get("query") == "cpu":
            cpu = meter.cpu_s()
            limit = query.get("limit_s")
            ceiling.stop_at_s = None if limit is None else cpu + float(limit)
            send_cpu(control, cpu)
        elif meter.complete_while_running:
            send_usage(control, meter.now())
        else:
            query_waiting = True
        return True

    try:
        out_of_memory_fd = None if setup.cgroup is None else setup.cgroup.out_of_memory_fd
        watched = watch(pid, limits, meter, control, answer, out_of_memory_fd, ceiling)
        if watched.killed:
            # Its dying processes may still hold the channel: the trusted side reads what
            # they sent before the kill, then the end, now.
            with socket.socket(fileno=os.dup(channel_fd)) as channel:
                channel.shutdown(socket.SHUT_RDWR)
        set_up = ready_byte(ready_read)
    finally:
        os.close(ready_read)
    dying = pid if watched.killed else None
    if not set_up:  # no submitted code ran: not the learner's doing, whatever stopped it
        return Ended(
            EXIT_STARVED if watched.code == EXIT_STARVED else EXIT_SETUP_FAILED,
            dying=dying,
            query_waiting=query_waiting,
        )
    if (
        not watched.killed
        and setup.cgroup is not None
        and setup.cgroup.out_of_memory_kills() > kills_before
    ):
        return Ended(EXIT_MEMORY_LIMIT, watched.usage, query_waiting=query_waiting)
    return Ended(watched.code, watched.usage, dying, query_waiting)


def ready_byte(ready_fd: int) -> bool:
    """Whether PID 1 wrote that it was set up; without waiting for a killed one to die."""
    os.set_blocking(ready_fd, False)
    try:
        return os.read(ready_fd, 1) == b"1"
    except BlockingIOError:
        return False


def join_cgroup(pid: int, joined_fd: int, cgroup: SlotCgroup | None) -> None:
    """Move the sandbox's PID 1 into the slot's cgroup, then tell it whether that worked.

    Done here rather than by PID 1 itself so that it overlaps PID 1's other layers: a v1
    cgroup move often waits for an RCU grace period (2.8 ms on average, 13 ms at the 90th
    percentile, at a grading's pace; docs/sandbox.md). PID 1 reads the answer before it
    reads any code, so every page and process of the submission is counted in the cgroup.
    """
    joined = b"1"
    if cgroup is not None:
        try:
            cgroup.add(pid)
        except OSError as exc:
            logger.warning("sandbox layer failed: cgroup: %s", exc.strerror)
            joined = b"0"
    try:
        os.write(joined_fd, joined)
    except BrokenPipeError:
        pass  # PID 1 already ended; its exit status tells how
    finally:
        os.close(joined_fd)


def send_ready(control: socket.socket, setup: ZygoteSetup) -> None:
    control.sendall(
        json.dumps(
            {
                "ready": True,
                "pid": os.getpid(),
                "uid": setup.uid,
                "state": str(Path(setup.root_mountpoint).parent),
                "unavailable": list(setup.unavailable),
                "reduced": list(setup.reduced),
                "image": setup.image,
                "one_process": setup.cgroup is None,
                "cgroups": [] if setup.cgroup is None else [str(f) for f in setup.cgroup.folders],
            }
        ).encode()
    )


def serve_forever(control: socket.socket, setup: ZygoteSetup) -> None:
    # The first spare too, made for the default size of private root: a pool's first gradings
    # (an exercise's first rung is measured on them: app/runtime/rungs.py) find one. Before
    # the zygote says it is ready, so that its processes are all there by then.
    spare = fork_spare(setup, SandboxLimits().tmpfs_mb)
    meter = Meter(setup.cgroup)
    last: Usage | None = None
    try:
        send_ready(control, setup)
        while True:
            received = receive_request(control)
            if received is None:
                return
            request, channel_fd = received
            if channel_fd is None:  # a query that came after the sandbox ended
                if request.get("query") == "cpu":
                    send_cpu(control, last.cpu_s if last else 0.0)
                else:
                    send_usage(control, last)
                continue
            limits = SandboxLimits.from_dict(request["limits"])
            try:
                ended = run_sandbox(
                    channel_fd, limits, setup, meter, control, usable(spare, limits)
                )
            except Exception:
                traceback.print_exc()
                ended = Ended(EXIT_SETUP_FAILED)
            finally:
                spare = None
                os.close(channel_fd)
            last = ended.usage
            control.sendall(
                json.dumps({"exit": ended.code, "usage": last and last.to_message()}).encode()
            )
            if ended.query_waiting:
                send_usage(control, last)
            if ended.dying is not None:
                # Reaped only now, and before the next request is read: a starved process
                # may take long to die, and the trusted side need not wait for that.
                os.waitpid(ended.dying, 0)
            # While the trusted side judges this one: the next request finds its PID 1 forked
            # and through its first layers.
            spare = fork_spare(setup, limits.tmpfs_mb)
    finally:
        if spare is not None:
            discard(spare)


def enter_zygote_layers(uid: int, root_mountpoint: str, image: str) -> list[str]:
    """The layers set up once per zygote; returns the reasons of those that failed.

    ``image`` is what the first stage said of the root image. Not fatal here: a strict
    sandbox then refuses every submission, saying why.
    """
    if isolation.rootless():
        try:
            isolation.enter_user_namespace(uid)
        except SandboxUnavailable as exc:
            # Without a user namespace no other namespace can be made either.
            logger.warning("sandbox layer unavailable: %s", exc)
            return [f"{exc}; {ROOTLESS_WAY_OUT}"]
    unavailable = [image] if image.startswith(IMAGE_FAILED) else []
    for layer in (
        isolation.enter_network_namespace,
        lambda: None if unavailable else isolation.prepare_root(root_mountpoint),
    ):
        try:
            layer()
        except SandboxUnavailable as exc:
            logger.warning("sandbox layer unavailable: %s", exc)
            unavailable.append(str(exc))
    return unavailable


ROOTLESS_WAY_OUT = (
    "not root, the sandbox needs unprivileged user namespaces: allow them "
    "(sysctl kernel.unprivileged_userns_clone=1 or user.max_user_namespaces > 0; on Ubuntu "
    "24.04+ kernel.apparmor_restrict_unprivileged_userns=0), or grade in the container "
    "(docker compose up), or accept reduced isolation with NUMJUDGE_SANDBOX_STRICT=false"
)


def claim_cgroup(
    state: StateFolder, *, own_mounts: bool
) -> tuple[SlotCgroup | None, tuple[str, ...]]:
    """The slot's cgroup, or None and why not (not required: rlimits still bound each process).
    ``own_mounts``: the zygote has a mount namespace of its own (it joined the image's), where
    it can mount what makes moves into that cgroup fast (``favor_cgroup_moves``)."""
    if isolation.rootless():
        return None, (
            "cgroup: not root, no cgroup can be made (a submission is one process: "
            "new processes are refused, threads allowed, so its address-space limit "
            "bounds all its memory)",
        )
    try:
        cgroup = SlotCgroup.create(state.path.name)
    except SandboxUnavailable as exc:
        logger.warning("sandbox layer unavailable: %s", exc)
        return None, (str(exc),)
    if own_mounts:
        favor_cgroup_moves(state)
    return cgroup, ()


HELD = "held"
"""The cgroup that keeps the hierarchy of ``favor_cgroup_moves`` from being destroyed."""


def favor_cgroup_moves(state: StateFolder) -> None:
    """Moves into the slot's cgroup that do not wait for an RCU grace period: the zygote makes
    one per request, on the grading's path (``join_cgroup``), and on this project's 2-core
    machines a waiting move took 7.3 ms at the median at a grading's pace, 0.1 ms without the
    wait (docs/sandbox.md). Mounted in the zygote's own mount namespace, on a folder of its
    state: nothing of it reaches the host's mount table, and the mount ends with the zygote.
    The hierarchy itself stays until the next boot (a cgroup in it, ``HELD``, keeps it): every
    process reads its number in ``/proc/self/cgroup``, and a hierarchy made again each time
    the host's last zygote ended would number those moments for any submission to read.
    Optional: a kernel without the option keeps the slower moves."""
    try:
        state.moves_mountpoint.mkdir(exist_ok=True)
        isolation.favor_cgroup_moves(str(state.moves_mountpoint))
        (state.moves_mountpoint / HELD).mkdir(exist_ok=True)
    except (OSError, SandboxUnavailable) as exc:
        logger.info("cgroup moves wait for a grace period here: %s", exc)


def main() -> None:
    isolation.scrub_environment()  # numpy has read its thread settings: nothing more is needed
    # Every module the zygote and its sandboxes run is imported by now (none imports later).
    harness.forget_engine_modules()
    # Objects imported so far move to a permanent generation: collections in a forked child
    # then never touch them, so their pages stay shared instead of being copied on write.
    gc.freeze()
    control_fd, slot, uid_base = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    # Claimed and locked by the first stage (``boot``), which passed the lock on.
    state = StateFolder.held(Path(sys.argv[4]), int(sys.argv[5]))
    image = sys.argv[6]
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if isolation.rootless():
        uid = uid_base + slot  # only inside its own user namespace: no other pool sees it
    else:
        # Held for the zygote's life: no other pool on this host runs as the same uid.
        uid, _uid_lock = claim_uid(uid_base)
    cgroup, reduced = claim_cgroup(state, own_mounts=not image.startswith(IMAGE_FAILED))
    no_landlock = landlock.unavailable()
    if no_landlock is not None:  # optional; the doctor tells, from what a probe can read
        logger.warning("sandbox layer unavailable: %s", no_landlock)
    unavailable = enter_zygote_layers(uid, state.root_mountpoint, image)
    if isolation.rootless() and not unavailable:
        try:
            is_zygote = isolation.enter_pid_namespace_as_init()
        except SandboxUnavailable as exc:
            unavailable.append(str(exc))
        else:
            if not is_zygote:
                os.close(control_fd)  # the trusted side sees the zygote's end, not ours
                _, status = os.wait()
                os._exit(os.waitstatus_to_exitcode(status) & 0xFF)
    control = socket.socket(fileno=control_fd)
    try:
        serve_forever(
            control,
            ZygoteSetup(
                slot,
                uid,
                state.root_mountpoint,
                isolation.own_pid_namespace(),
                tuple(unavailable),
                cgroup,
                reduced,
                landlock=no_landlock is None,
                image=image,
            ),
        )
    except (BrokenPipeError, ConnectionResetError):
        pass  # the trusted side closed the pool
    finally:
        if cgroup is not None:
            cgroup.remove()


if __name__ == "__main__":
    main()
