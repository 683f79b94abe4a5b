"""The trusted side of the sandbox: a pool of zygotes and the protocol to run one submission.

``Sandbox.run(code, entry, tasks, limits)`` hands one end of a fresh channel to an idle
zygote, writes the code and the tasks' inputs to the other end, and collects the frames the
sandbox streams back, enforcing the output budget and a wall-clock backstop. It never sends
an expected output.
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
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from graders.errors import SandboxFault, SandboxUnavailable, WireError
from graders.sandbox.exitcodes import EXIT_SETUP_FAILED, EXIT_SIGNAL_BASE, EXIT_TIMEOUT
from graders.sandbox.harness import MAX_WARNING_CHARS, MAX_WARNINGS
from graders.sandbox.limits import SandboxLimits
from graders.sandbox.untrusted import make_trustworthy
from graders.wire import HEADER, decode_value, encode_value, recv_frame, send_pieces

logger = logging.getLogger(__name__)

BACKSTOP_GRACE_S = 3.0
SETTLE_GRACE_S = 2.0
ZYGOTE_START_TIMEOUT_S = 30.0
ENGINE_ATTEMPTS = 3
"""A grading lost to an engine fault is tried this often in all, each time in a fresh zygote."""
PASSED_ENVIRONMENT = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")
PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])


@dataclass(frozen=True)
class Task:
    """One call of the entry function: argument names and values, in call order.

    ``flush``: send the results gathered so far once this call is done (the last call of a
    case), so results stream back case by case with one write each.
    """

    names: tuple[str, ...]
    args: tuple[Any, ...]
    flush: bool = True


@dataclass(frozen=True)
class TaskOutcome:
    ok: bool
    value: Any = None
    error: dict[str, Any] | None = None
    mutated: tuple[str, ...] = ()
    stdout: str = ""
    seconds: float = 0.0
    warnings: tuple[str, ...] = ()
    """The distinct warnings the call raised (``RuntimeWarning: overflow encountered in exp``)."""


class Ending(Enum):
    """How a sandbox run ended."""

    COMPLETED = "completed"
    LOAD_ERROR = "load_error"
    TIMEOUT = "timeout"
    CRASHED = "crashed"
    OUTPUT_LIMIT = "output_limit"
    PROTOCOL_ERROR = "protocol_error"


@dataclass
class RunResult:
    ending: Ending
    outcomes: dict[int, TaskOutcome] = field(default_factory=dict)
    load_error: dict[str, Any] | None = None
    load_stdout: str = ""
    exit_code: int | None = None
    message: str = ""
    dropped_chars: int = 0

    @property
    def signal(self) -> int | None:
        if self.exit_code is not None and self.exit_code > EXIT_SIGNAL_BASE:
            return self.exit_code - EXIT_SIGNAL_BASE
        return None


def zygote_environment() -> dict[str, str]:
    """The zygote's whole environment: nothing of the server's secrets."""
    env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONPATH": PACKAGE_ROOT,
           "PYTHONDONTWRITEBYTECODE": "1", "OPENBLAS_NUM_THREADS": "1",
           "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    env.update({k: os.environ[k] for k in PASSED_ENVIRONMENT if k in os.environ})
    return env


class ZygoteLost(Exception):
    """The zygote's control socket closed or failed: the zygote is dead or unusable."""


class Zygote:
    """One warm zygote process and its control socket; serves one submission at a time."""

    def __init__(self, slot: int) -> None:
        self.slot = slot
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.control = ours
        self.process = subprocess.Popen(
            [sys.executable, "-m", "graders.sandbox.zygote", str(theirs.fileno()), str(slot)],
            pass_fds=[theirs.fileno()], env=zygote_environment(), cwd="/",
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, start_new_session=True,
        )
        theirs.close()
        self.pending_deadline: float | None = None
        """Set while a sandbox's exit has not been read from the control socket."""
        self.control.settimeout(ZYGOTE_START_TIMEOUT_S)
        try:
            hello = json.loads(self.control.recv(4096) or b"{}")
        except (OSError, ValueError):
            hello = {}
        if not isinstance(hello, dict) or not hello.get("ready"):
            self.kill()
            raise SandboxFault(f"zygote {slot} did not start")
        self.unavailable: tuple[str, ...] = tuple(str(x) for x in hello.get("unavailable", ()))
        """Layers the zygote could not set up, each with its reason."""

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def start(self, channel: socket.socket, limits: SandboxLimits, deadline: float) -> None:
        message = json.dumps({"limits": limits.to_dict()}).encode()
        fds = array.array("i", [channel.fileno()])
        try:
            self.control.sendmsg([message], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, fds)])
        except OSError as exc:
            raise ZygoteLost(f"cannot reach the zygote: {exc}") from exc
        self.pending_deadline = deadline

    def wait_exit(self, timeout: float) -> int | None:
        """The exit code of the last sandbox, or None if it has not ended within ``timeout``."""
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
            code = int(json.loads(data)["exit"])
        except (ValueError, KeyError, TypeError) as exc:
            raise ZygoteLost(f"unreadable reply from the zygote: {data[:100]!r}") from exc
        self.pending_deadline = None
        return code

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


class Sandbox:
    """A pool of zygotes; ``run`` is thread-safe and blocks until a zygote is free."""

    def __init__(self, workers: int = 2, limits: SandboxLimits | None = None) -> None:
        self.limits = limits or SandboxLimits()
        self._idle: queue.Queue[Zygote] = queue.Queue()
        self._all: list[Zygote] = []
        self._lock = threading.Lock()
        for slot in range(workers):
            zygote = Zygote(slot)
            self._all.append(zygote)
            self._idle.put(zygote)

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        with self._lock:
            for zygote in self._all:
                zygote.close()
            self._all.clear()

    def run(self, code: str, entry: str, tasks: Sequence[Task] | EncodedTasks,
            limits: SandboxLimits | None = None) -> RunResult:
        """Run ``code`` once per task; only the learner's own doing ends up in the result.

        A grading lost to the engine (a zygote that died, a sandbox whose set-up failed) is
        tried again in a fresh zygote, up to ``ENGINE_ATTEMPTS`` times in all; then
        ``SandboxFault``. A required layer that this machine lacks: ``SandboxUnavailable``.
        """
        limits = limits or self.limits
        if not isinstance(tasks, EncodedTasks):
            tasks = encode_tasks(tasks)
        for attempt in range(1, ENGINE_ATTEMPTS + 1):
            try:
                return self._run_once(code, entry, tasks, limits)
            except SandboxFault as fault:
                logger.warning("grading lost to an engine fault (attempt %d of %d): %s",
                               attempt, ENGINE_ATTEMPTS, fault)
                if attempt == ENGINE_ATTEMPTS:
                    raise SandboxFault(f"the grading was lost {ENGINE_ATTEMPTS} times to "
                                       f"engine faults; the last: {fault}") from fault
        raise AssertionError("unreachable")

    def _run_once(self, code: str, entry: str, tasks: EncodedTasks,
                  limits: SandboxLimits) -> RunResult:
        zygote = self._idle.get()
        healthy = False
        try:
            if not zygote.alive or not zygote.settle():
                zygote = self._replace(zygote)
            if limits.strict and zygote.unavailable:
                healthy = True
                raise SandboxUnavailable("sandbox setup: " + "; ".join(zygote.unavailable))
            result, healthy = run_in_zygote(zygote, code, entry, tasks, limits)
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
        logger.warning("restarting zygote %d", zygote.slot)
        zygote.kill()
        fresh = Zygote(zygote.slot)
        with self._lock:
            self._all[self._all.index(zygote)] = fresh
        return fresh


@dataclass(frozen=True)
class EncodedTasks:
    """Tasks ready for the channel: their JSON and the raw bytes of every input array.

    The same for every submission to one exercise version, so the engine encodes them once.
    """

    json: str
    buffers: tuple[bytes, ...]
    sizes_json: str
    """The byte size of each buffer, as the request header lists them."""


def encode_tasks(tasks: Sequence[Task]) -> EncodedTasks:
    """Encode every task's inputs, sending each distinct buffer once.

    The slices of a batched case repeat its weights, so most input bytes are repeats:
    for gru-update-gate, 80 kB of distinct data among 900 kB.
    """
    buffers: list[bytes | memoryview] = []
    encoded = [{"names": list(task.names), "args": [encode_value(a, buffers) for a in task.args],
                "flush": task.flush} for task in tasks]
    distinct: dict[bytes, int] = {}
    renumbered = [distinct.setdefault(bytes(buffer), len(distinct)) for buffer in buffers]
    for task in encoded:
        for node in task["args"]:
            _renumber_buffers(node, renumbered)
    return EncodedTasks(json.dumps(encoded, separators=(",", ":")), tuple(distinct),
                        json.dumps([len(buffer) for buffer in distinct], separators=(",", ":")))


def _renumber_buffers(node: dict[str, Any], renumbered: list[int]) -> None:
    if "b" in node:
        node["b"] = renumbered[node["b"]]
    for item in node.get("items", ()):
        _renumber_buffers(item, renumbered)


def request_frame(code: str, entry: str, tasks: EncodedTasks) -> list[bytes | memoryview]:
    """The request frame: only the code and the entry name are new for each submission."""
    header = (f'{{"code":{json.dumps(code)},"entry":{json.dumps(entry)},'
              f'"tasks":{tasks.json},"buffers":{tasks.sizes_json}}}').encode()
    return [HEADER.pack(len(header)), header, *tasks.buffers]


def run_in_zygote(zygote: Zygote, code: str, entry: str, tasks: EncodedTasks,
                  limits: SandboxLimits) -> tuple[RunResult, bool]:
    """Run one submission; also says whether the zygote is still fit for the next one.

    Raises ``SandboxFault`` when the engine, not the submission, lost the grading.
    """
    deadline = time.monotonic() + limits.time_s + BACKSTOP_GRACE_S
    ours, theirs = socket.socketpair()
    try:
        zygote.start(theirs, limits, deadline)
        theirs.close()
        ours.settimeout(max(deadline - time.monotonic(), 0.01))
        # If the sandbox ended before reading, its frames or its exit code say why.
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            send_pieces(ours, request_frame(code, entry, tasks))
        result = collect_frames(ours, deadline, limits)
    except ZygoteLost as exc:
        raise SandboxFault(f"zygote {zygote.slot}: {exc}") from exc
    except TimeoutError:
        result = RunResult(Ending.TIMEOUT)
    except Exception as exc:  # every frame is hostile: never crash on one
        logger.warning("a sandbox's frames could not be read: %r", exc)
        result = RunResult(Ending.PROTOCOL_ERROR,
                           message=f"the sandbox sent a malformed message ({type(exc).__name__})")
    finally:
        ours.close()
        theirs.close()
    make_trustworthy(result, limits)
    if result.ending is Ending.COMPLETED:
        # Every result is in: the sandbox's teardown need not delay this grading. Its exit
        # is collected before the zygote's next run.
        return result, True
    try:
        exit_code = zygote.wait_exit(deadline - time.monotonic())
    except ZygoteLost as exc:
        raise SandboxFault(f"zygote {zygote.slot} died during the grading ({exc})") from exc
    if exit_code is None:
        result.ending = Ending.TIMEOUT
        result.message = "the sandbox did not end in time and was killed"
        return result, False
    result.exit_code = exit_code
    if exit_code == EXIT_TIMEOUT:
        result.ending = Ending.TIMEOUT
    elif exit_code == EXIT_SETUP_FAILED:
        # The zygote saw no "set up" byte from the sandbox: no submitted code ran.
        raise SandboxFault(result.message or "the sandbox could not be set up")
    elif result.ending is Ending.CRASHED and not result.message:
        result.message = describe_exit(exit_code)
    return result, True


def describe_exit(exit_code: int) -> str:
    if exit_code > EXIT_SIGNAL_BASE:
        number = exit_code - EXIT_SIGNAL_BASE
        name = signal.Signals(number).name if number in signal.Signals._value2member_map_ else ""
        return f"the process was killed by signal {number} {name}".rstrip()
    return f"the process ended (exit code {exit_code}) before all tests ran"


def collect_frames(channel: socket.socket, deadline: float, limits: SandboxLimits) -> RunResult:
    result = RunResult(Ending.CRASHED)
    budget = [limits.max_output_mb * 1024 * 1024]
    reader = channel.makefile("rb")
    while True:
        channel.settimeout(max(deadline - time.monotonic(), 0.01))
        try:
            header, buffers = recv_frame(reader, budget)
        except EOFError:
            return result
        except TimeoutError:
            result.ending = Ending.TIMEOUT
            return result
        except WireError as exc:
            over = "over the limit" in str(exc)
            result.ending = Ending.OUTPUT_LIMIT if over else Ending.PROTOCOL_ERROR
            result.message = (f"the output is too large (limit {limits.max_output_mb} MB)"
                              if over else f"the sandbox sent a malformed message: {exc}")
            return result
        except OSError:
            return result
        try:
            finished = apply_frame(result, header, buffers)
        except (WireError, KeyError, TypeError, ValueError) as exc:
            result.ending = Ending.PROTOCOL_ERROR
            result.message = f"the sandbox sent a malformed message: {exc}"
            return result
        if finished:
            return result


def apply_frame(result: RunResult, header: dict[str, Any], buffers: list[memoryview]
                ) -> bool:
    """Fold one frame into ``result``; True once the run is complete."""
    kind = header["kind"]
    if kind == "setup_error":
        # Believed only with the zygote's exit code; submitted code could forge the frame.
        result.message = str(header["message"])[:500]
        return True
    if kind == "load_error":
        result.ending = Ending.LOAD_ERROR
        result.load_error = dict(header["error"])
        result.load_stdout = str(header.get("stdout", ""))
        return True
    if kind == "loaded":
        result.load_stdout = str(header.get("stdout", ""))
        return False
    if kind == "task":
        index = int(header["index"])
        result.outcomes[index] = TaskOutcome(
            ok=bool(header["ok"]),
            value=decode_value(header["value"], buffers) if header["ok"] else None,
            error=dict(header["error"]) if not header["ok"] else None,
            mutated=tuple(str(name) for name in header.get("mutated", ())),
            stdout=str(header.get("stdout", "")),
            seconds=float(header.get("seconds", 0.0)),
            warnings=tuple(str(text)[:MAX_WARNING_CHARS]
                           for text in list(header.get("warnings", ()))[:MAX_WARNINGS]),
        )
        return False
    if kind == "done":
        result.ending = Ending.COMPLETED
        result.dropped_chars = int(header.get("dropped_chars", 0))
        return True
    raise WireError(f"unknown frame kind {kind!r}")
