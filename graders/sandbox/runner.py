"""The trusted side of the sandbox: a pool of zygotes, and one submission's run in one of them.

``Sandbox.run(code, entry, tasks, limits)`` hands one end of a fresh channel to an idle
zygote and holds the conversation of ``protocol.py`` on the other end (the code and the
public inputs first, hidden cases one at a time). The zygote enforces the time limits
(``watch.py``); this side only has a backstop for a zygote that fails to. It never sends an
expected output.
"""

from __future__ import annotations

import array
import contextlib
import json
import logging
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from graders.errors import SandboxClosed, SandboxFault, SandboxStarved, SandboxUnavailable
from graders.sandbox.cpu_affinity import children_use_every_cpu
from graders.sandbox.exitcodes import (
    EXIT_MEMORY_LIMIT,
    EXIT_SETUP_FAILED,
    EXIT_SIGNAL_BASE,
    EXIT_STARVED,
    EXIT_TIMEOUT,
    EXIT_WALL_LIMIT,
)
from graders.sandbox.launch import child_environment, launcher
from graders.sandbox.limits import SandboxLimits
from graders.sandbox.protocol import (
    EncodedTasks,
    Ending,
    RunResult,
    Task,
    encode_tasks,
    exchange,
)
from graders.sandbox.shared_image import shared_image
from graders.sandbox.shared_image import vanished as image_vanished
from graders.sandbox.state import lock_identity, vanished
from graders.sandbox.state import remove as remove_state_folder
from graders.sandbox.untrusted import make_trustworthy
from graders.sandbox.usage import Usage

logger = logging.getLogger(__name__)

BACKSTOP_GRACE_S = 3.0
"""Past the zygote's wall-clock ceiling, this side gives up on the zygote itself."""
SETTLE_GRACE_S = 2.0
ZYGOTE_START_TIMEOUT_S = 30.0
ENGINE_ATTEMPTS = 3
"""A grading lost to an engine fault is tried this often in all, each time in a fresh zygote."""


def zygote_launcher() -> str:
    """``python -c`` code that starts a zygote: its first stage (``boot``), which joins the
    sandboxes' root image and starts the zygote from it."""
    return launcher("graders.sandbox.boot")


class ZygoteLost(Exception):
    """The zygote's control socket closed or failed: the zygote is dead or unusable."""


class Zygote:
    """One warm zygote process and its control socket; serves one submission at a time."""

    def __init__(self, slot: int, uid_base: int) -> None:
        self.slot = slot
        self.uid_base = uid_base
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.control = ours
        with shared_image() as image, children_use_every_cpu():
            description = {
                "namespaces": list(image.namespaces),
                "mountpoint": image.mountpoint,
                "folders": list(image.folders),
            }
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-c",
                    zygote_launcher(),
                    str(theirs.fileno()),
                    str(slot),
                    str(uid_base),
                    image.report,
                    json.dumps(description),
                ],
                pass_fds=[theirs.fileno(), *image.namespaces],
                env=child_environment(),
                cwd="/",
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                start_new_session=True,
            )
        theirs.close()
        self.pending_deadline: float | None = None
        """Set while a sandbox's exit has not been read from the control socket."""
        self.early_exit: tuple[int, Usage | None] | None = None
        """A sandbox's exit that came while this side waited for a CPU reading."""
        self.control.settimeout(ZYGOTE_START_TIMEOUT_S)
        try:
            hello = json.loads(self.control.recv(4096) or b"{}")
        except (OSError, ValueError):
            hello = {}
        if not isinstance(hello, dict) or not hello.get("ready"):
            self.kill()
            raise SandboxFault(f"zygote {slot} did not start")
        self.state_folder = Path(str(hello["state"]))
        """Its private folder on the host (``state.py``)."""
        self.state_identity = lock_identity(self.state_folder)
        """Its lock file's, as the zygote started: another, or none, and the folder vanished."""
        self.cgroups = tuple(Path(str(folder)) for folder in hello.get("cgroups", ()))
        """The folders of its sandboxes' cgroup (none without the layer)."""
        self.uid = int(hello["uid"])
        """The uid its sandboxes run as (unique on this host while it lives, when root)."""
        self.unavailable: tuple[str, ...] = tuple(str(x) for x in hello.get("unavailable", ()))
        """Layers the zygote could not set up, each with its reason."""
        self.reduced: tuple[str, ...] = tuple(str(x) for x in hello.get("reduced", ()))
        """Optional layers missing here (no cgroup), each with its reason."""
        self.one_process = bool(hello.get("one_process"))
        """Whether its sandboxes may start no process (no cgroup: ``seccomp``)."""
        self.image = str(hello.get("image", ""))
        """What the zygote's first stage said of the root image (``boot``)."""

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def missing(self) -> tuple[str, ...]:
        """Its working folders that vanished since it started (a cleaner of the temporary
        folder, say): with its state folder went its sandboxes' root, with a cgroup their
        budget, and no sandbox of it could be set up."""
        gone = []
        if self.state_identity is None or vanished(self.state_folder, self.state_identity):
            gone.append(f"zygote {self.slot}'s state folder {self.state_folder}")
        gone += [f"zygote {self.slot}'s cgroup {f}" for f in self.cgroups if not f.is_dir()]
        return tuple(gone)

    def start(self, channel: socket.socket, limits: SandboxLimits, deadline: float) -> None:
        message = json.dumps({"limits": limits.to_dict()}).encode()
        fds = array.array("i", [channel.fileno()])
        try:
            self.control.sendmsg([message], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, fds)])
        except OSError as exc:
            raise ZygoteLost(f"cannot reach the zygote: {exc}") from exc
        self.pending_deadline = deadline

    def receive(self, timeout: float) -> dict[str, Any] | None:
        """The zygote's next message, or None if none came within ``timeout``."""
        self.control.settimeout(max(timeout, 0.01))
        try:
            data = self.control.recv(4096)
        except TimeoutError:
            return None
        except OSError as exc:
            raise ZygoteLost(str(exc)) from exc
        if not data:
            raise ZygoteLost("the zygote ended")
        try:
            message = json.loads(data)
        except ValueError:
            message = None
        if not isinstance(message, dict):
            raise ZygoteLost(f"unreadable reply from the zygote: {data[:100]!r}")
        return message

    def wait_exit(self, timeout: float) -> tuple[int, Usage | None] | None:
        """The exit code of the last sandbox and what it used, or None if it has not ended
        within ``timeout``."""
        if self.early_exit is not None:
            ended, self.early_exit = self.early_exit, None
        else:
            message = self.receive(timeout)
            if message is None:
                return None
            ended = read_exit(message)
        self.pending_deadline = None
        return ended

    def cpu_so_far(self, limit_s: float | None, deadline: float) -> float:
        """The CPU time the sandbox in flight used so far (the last one's, had it ended), as
        the zygote reads it; with ``limit_s`` the zygote stops the sandbox once it used that
        much more CPU time, until the next reading."""
        try:
            self.control.send(json.dumps({"query": "cpu", "limit_s": limit_s}).encode())
        except OSError as exc:
            raise ZygoteLost(f"cannot reach the zygote: {exc}") from exc
        while True:
            message = self.receive(deadline - time.monotonic())
            if message is None:
                raise ZygoteLost("the zygote did not answer a CPU query")
            if "exit" in message:  # the sandbox ended first: kept for ``wait_exit``
                self.early_exit = read_exit(message)
                continue
            cpu = message.get("cpu_s")
            if not isinstance(cpu, int | float) or isinstance(cpu, bool) or cpu < 0:
                raise ZygoteLost(f"unreadable reply from the zygote: {message!r:.100}")
            return float(cpu)

    def usage_so_far(self, deadline: float) -> Usage | None:
        """What the sandbox in flight used so far (the last one's, had it ended already)."""
        try:
            self.control.send(json.dumps({"query": "usage"}).encode())
        except OSError as exc:
            raise ZygoteLost(f"cannot reach the zygote: {exc}") from exc
        while True:
            message = self.receive(deadline - time.monotonic())
            if message is None:
                raise ZygoteLost("the zygote did not answer a usage query")
            if "exit" not in message:
                return read_usage(message.get("usage"))
            # The sandbox ended before the query was read: the answer comes next.
            self.pending_deadline = self.early_exit = None

    def settle(self) -> bool:
        """Collect the exit of a sandbox whose results were returned early; False if stuck."""
        if self.pending_deadline is None:
            return True
        try:
            timeout = max(self.pending_deadline - time.monotonic(), SETTLE_GRACE_S)
            return self.wait_exit(timeout) is not None
        except ZygoteLost:
            return False

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        self.control.close()

    def close(self) -> None:
        self.control.close()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.kill()
        else:
            # Removed from here: in the zygote's own mount namespace its root image is
            # mounted on the folder, for good.
            remove_state_folder(self.state_folder)


class Sandbox:
    """A pool of zygotes; ``run`` is thread-safe and blocks until a zygote is free."""

    def __init__(self, workers: int = 2, limits: SandboxLimits | None = None) -> None:
        self.limits = limits or SandboxLimits()
        self._idle: queue.Queue[Zygote] = queue.Queue()
        self._all: list[Zygote] = []
        self._lock = threading.Lock()
        self._closed = False
        for slot in range(workers):
            zygote = Zygote(slot, self.limits.uid_base)
            self._all.append(zygote)
            self._idle.put(zygote)

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            for zygote in self._all:
                zygote.close()
            self._all.clear()

    @property
    def zygotes(self) -> tuple[Zygote, ...]:
        """The pool's zygotes now, one per slot in slot order (none once closed): what the
        doctor probes and the benches and tests inspect or break. A zygote that failed is
        replaced by a fresh one in its slot, so a later call may return another."""
        with self._lock:
            return tuple(self._all)

    def missing(self) -> tuple[str, ...]:
        """The pool's working folders that vanished: the root image's, each zygote's state
        folder and cgroups; empty when all are there. Each is made again before it is used
        (``run``), or by ``repair``."""
        image = image_vanished()
        return (
            *([f"the root image's folder {image}"] if image else []),
            *(gone for zygote in self.zygotes for gone in zygote.missing()),
        )

    def repair(self) -> tuple[str, ...]:
        """Make again what ``missing`` names, but for the zygotes busy now (each is checked
        before its next run); returns what was missing."""
        missing = self.missing()
        if not missing:
            return ()
        logger.warning("working folders vanished, made again: %s", "; ".join(missing))
        with shared_image():
            pass  # built again here if its folder vanished
        for _ in range(len(self._all)):
            try:
                zygote = self._idle.get_nowait()
            except queue.Empty:
                break
            try:
                if zygote.missing():
                    zygote = self._replace(zygote)
            except (SandboxFault, OSError) as exc:  # replaced again before its next run
                logger.warning("zygote %d could not be started again: %s", zygote.slot, exc)
            finally:
                self._idle.put(zygote)
        return missing

    def run(
        self,
        code: str,
        entry: str,
        tasks: Sequence[Task] | EncodedTasks,
        limits: SandboxLimits | None = None,
    ) -> RunResult:
        """Run ``code`` once per task; only the learner's own doing ends up in the result.

        A grading lost to the engine (a zygote that died, a sandbox whose set-up failed) is
        tried again in a fresh zygote, up to ``ENGINE_ATTEMPTS`` times in all; then
        ``SandboxFault``. A submission the host starved of CPU: ``SandboxStarved``, at once.
        A required layer that this machine lacks: ``SandboxUnavailable``.
        """
        limits = limits or self.limits
        if not isinstance(tasks, EncodedTasks):
            tasks = encode_tasks(tasks)
        for attempt in range(1, ENGINE_ATTEMPTS + 1):
            try:
                return self._run_once(code, entry, tasks, limits)
            except (SandboxStarved, SandboxClosed):
                raise  # the host is busy now, or the pool is closing: at once
            except SandboxFault as fault:
                logger.warning(
                    "grading lost to an engine fault (attempt %d of %d): %s",
                    attempt,
                    ENGINE_ATTEMPTS,
                    fault,
                )
                if attempt == ENGINE_ATTEMPTS:
                    raise SandboxFault(
                        f"the grading was lost {ENGINE_ATTEMPTS} times to "
                        f"engine faults; the last: {fault}"
                    ) from fault
        raise AssertionError("unreachable")

    def _run_once(
        self, code: str, entry: str, tasks: EncodedTasks, limits: SandboxLimits
    ) -> RunResult:
        zygote = self._idle.get()
        healthy = False
        try:
            gone = zygote.missing()
            if gone:
                logger.warning("working folders vanished: %s", "; ".join(gone))
            if gone or not zygote.alive or not zygote.settle():
                zygote = self._replace(zygote)
            if limits.strict and zygote.unavailable:
                healthy = True
                raise SandboxUnavailable("sandbox setup: " + "; ".join(zygote.unavailable))
            try:
                result, healthy = run_in_zygote(zygote, code, entry, tasks, limits)
            except SandboxStarved:
                healthy = True  # the zygote did its part: stopped the sandbox and said why
                raise
            return result
        finally:
            # Whatever went wrong, the zygote goes back fit for the next grading: a zygote
            # whose sandbox's end was not collected is replaced, never reused one step behind.
            try:
                if not healthy:
                    zygote = self._replace(zygote)
            finally:
                self._idle.put(zygote)

    def _replace(self, zygote: Zygote) -> Zygote:
        """A fresh zygote in ``zygote``'s place; ``SandboxClosed`` once the pool is closed,
        whose ``close`` would never stop a zygote started after it."""
        zygote.kill()
        if self._closed:
            raise SandboxClosed("the sandbox pool was closed during the grading")
        logger.warning("restarting zygote %d", zygote.slot)
        fresh = Zygote(zygote.slot, zygote.uid_base)
        with self._lock:
            if not self._closed:
                self._all[self._all.index(zygote)] = fresh
                return fresh
        fresh.kill()
        raise SandboxClosed("the sandbox pool was closed during the grading")


def run_in_zygote(
    zygote: Zygote, code: str, entry: str, tasks: EncodedTasks, limits: SandboxLimits
) -> tuple[RunResult, bool]:
    """Run one submission; also says whether the zygote is still fit for the next one.

    Raises ``SandboxFault`` when the engine, not the submission, lost the grading, and
    ``SandboxStarved`` when the host gave the submission too little CPU to judge it.
    """
    deadline = time.monotonic() + limits.starved_wall_s + BACKSTOP_GRACE_S
    ours, theirs = socket.socketpair()
    try:
        zygote.start(theirs, limits, deadline)
        theirs.close()
        ours.settimeout(max(deadline - time.monotonic(), 0.01))
        result = exchange(
            ours,
            code,
            entry,
            tasks,
            deadline,
            limits,
            lambda limit_s: zygote.cpu_so_far(limit_s, deadline),
        )
    except ZygoteLost as exc:
        raise SandboxFault(f"zygote {zygote.slot}: {exc}") from exc
    except TimeoutError:
        result = RunResult(Ending.TIMEOUT)
    except Exception as exc:  # every frame is hostile: never crash on one
        logger.warning("a sandbox's frames could not be read: %r", exc)
        result = RunResult(
            Ending.PROTOCOL_ERROR,
            message=f"the sandbox sent a malformed message ({type(exc).__name__})",
        )
    finally:
        ours.close()
        theirs.close()
    make_trustworthy(result, limits)
    result.missing_layers = zygote.unavailable
    if result.ending is Ending.COMPLETED:
        # Every result is in: the sandbox's teardown need not delay this grading (its exit
        # is collected before the zygote's next run), only asking what it used.
        try:
            result.usage = zygote.usage_so_far(deadline)
        except ZygoteLost as exc:
            logger.warning("zygote %d: no usage for a completed run: %s", zygote.slot, exc)
            return result, False
        return result, True
    try:
        ended = zygote.wait_exit(deadline - time.monotonic())
    except ZygoteLost as exc:
        raise SandboxFault(f"zygote {zygote.slot} died during the grading ({exc})") from exc
    if ended is None:
        raise SandboxFault(
            f"zygote {zygote.slot} did not stop its sandbox by the wall-clock ceiling"
        )
    exit_code, result.usage = ended
    result.exit_code = exit_code
    if exit_code == EXIT_TIMEOUT:
        result.ending = Ending.TIMEOUT
    elif exit_code == EXIT_WALL_LIMIT:
        result.ending = Ending.WALL_LIMIT
    elif exit_code == EXIT_STARVED:
        used = f"{result.usage.cpu_s:.2f} s of CPU time" if result.usage else "no CPU time"
        raise SandboxStarved(
            f"the submission was runnable but got {used} in "
            f"{limits.starved_wall_s:g} s: the host is too busy to judge it "
            "now"
        )
    elif exit_code == EXIT_MEMORY_LIMIT:
        result.message = (
            f"the submission's processes together went over the memory limit "
            f"({limits.memory_mb} MB) and were killed"
        )
    elif exit_code == EXIT_SETUP_FAILED:
        # The zygote saw no "set up" byte from the sandbox: no submitted code ran.
        raise SandboxFault(result.message or "the sandbox could not be set up")
    elif result.ending is Ending.CRASHED and not result.message:
        result.message = describe_exit(exit_code)
    return result, True


def read_exit(message: Any) -> tuple[int, Usage | None]:
    """A sandbox's exit code and usage from the zygote's ``{"exit", "usage"}``."""
    try:
        code = int(message["exit"])
    except (ValueError, KeyError, TypeError) as exc:
        raise ZygoteLost(f"unreadable reply from the zygote: {message!r:.100}") from exc
    return code, read_usage(message.get("usage"))


def read_usage(message: Any) -> Usage | None:
    """A usage from the zygote, or None if it had none (a sandbox that never ran)."""
    if message is None:
        return None
    try:
        return Usage.from_message(message)
    except ValueError as exc:
        raise ZygoteLost(str(exc)) from exc


def describe_exit(exit_code: int) -> str:
    if exit_code > EXIT_SIGNAL_BASE:
        number = exit_code - EXIT_SIGNAL_BASE
        name = signal.Signals(number).name if number in signal.Signals._value2member_map_ else ""
        return f"the process was killed by signal {number} {name}".rstrip()
    return f"the process ended (exit code {exit_code}) before all tests ran"
