"""The trusted side of the conversation with a sandbox (its order is described in harness.py).

The public tasks go with the code in the request. The hidden ones are sent a case at a time,
each only after the previous case's results came back, so that learner code can reach no
hidden input before the call that receives it. Every frame is checked against what this side
already knows: its kind must be the one expected at this point of the conversation, a results
frame must start at the next index and end within the case in flight (a public one: within the
public tasks), the inputs a result says were changed must be arguments of that task, and the
generator states it reports must be one for each generator argument of the task and no other.
Of a hidden call only the value, whether it raised ``MemoryError``, one of the scenario
runner's findings (``RUNNER_FINDING_NAMES``) or something else, the
changed arguments and the generators' states are kept; text and timing from the sandbox are
not even read.

A timed case (``Deferral``: a case with its own time limit, or a speed rule's run) is sent a
case at a time too, public or not, so that this side can read the sandbox's CPU time (from the
zygote, never from the sandbox) before its frame goes and after its results came back. A
public one is ``shown``: sent before any hidden case, its calls' text comes back as a public
call's.
"""

from __future__ import annotations

import contextlib
import json
import socket
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from graders.errors import FrameTooLarge, HeaderTooComplex, WireError
from graders.sandbox.exitcodes import EXIT_SIGNAL_BASE
from graders.sandbox.harness import MAX_WARNING_CHARS, MAX_WARNINGS
from graders.sandbox.limits import SandboxLimits
from graders.sandbox.scenario import RUNNER_FINDING_NAMES
from graders.sandbox.usage import Usage
from graders.sandbox.wire import (
    HEADER,
    MAX_VALUE_NESTING,
    HeaderBudget,
    checked_generator_state,
    decode_value,
    encode_value,
    generator_state,
    pack_frame,
    recv_frame,
    send_pieces,
)
from graders.values import MAX_NUMBER, GeneratorState, Growth, InputFunction

MAX_RESULT_VALUES = 50_000
"""JSON values that the headers of one submission's frames may hold in all, as
``wire.header_values`` counts them before parsing: grading the reference or a known mistake
of any exercise here needs at most 2 871 (and 8 kB of headers), text a learner prints or
raises counts its quotes and commas too. With ``MAX_RESULT_HEADER_BYTES`` it bounds the
trusted side's time for whatever a sandbox sends: 15 ms at worst (``bench/hostile_results.py``,
docs/security.md)."""
MAX_RESULT_HEADER_BYTES = 2 * 1024 * 1024
"""Bytes the headers of one submission's frames may hold in all: the printed text a public
case may show (20 000 characters by default) and error messages of 8 000 characters per
public call, each character escaped in up to 6 bytes, fit many times over."""


HIDDEN_ERROR_TYPES = frozenset({"MemoryError", *RUNNER_FINDING_NAMES})
"""The exception types a hidden call's error may name; any other is ``Exception``."""


@dataclass(frozen=True)
class BatchItem:
    """A call on one item of the batch of the case's main call: its inputs are that call's,
    each input named in ``axes`` taken at ``index`` along its axis (``ndarray.take``), so
    the sandbox derives them instead of receiving them again; ``keep_axis``: as a batch of
    one (``take([index])``), its batch axis kept."""

    index: int
    axes: tuple[tuple[str, int], ...]
    keep_axis: bool = False


@dataclass(frozen=True)
class Deferral:
    """How a case sent a case at a time (after the public tasks) is sent and read."""

    shown: bool = False
    """A public case's calls: sent before any hidden case, their text comes back (printed
    output, the exception's message, the warnings) as a public call's."""
    timed: bool = False
    """The sandbox's CPU time is read before the frame goes and after its results came back."""
    limit_s: float | None = None
    """The case's own CPU time limit: the zygote stops the sandbox at it (``timed`` only)."""


CpuClock = Callable[[float | None], float]
"""``clock(limit_s)``: the CPU time the running sandbox used so far, read by the zygote; with
``limit_s``, the sandbox is also stopped once it used that much more (``None`` lifts it)."""


@dataclass(frozen=True)
class Task:
    """One call of the entry function: argument names and values, in call order.

    ``flush``: the last call of a case; results gathered so far go back in one write, and a
    hidden case's calls travel together up to it. ``hidden``: the call's inputs reach the
    sandbox only when its case runs; hidden tasks come after every public one. ``item``: a
    batch item of the latest task before it without one, in the same case (``args`` is then
    empty). ``deferral``: of a hidden task, how its case is sent (the first task of a case
    decides); a public case that is timed is sent as a hidden task with ``Deferral(shown=True)``.
    """

    names: tuple[str, ...]
    args: tuple[Any, ...]
    flush: bool = True
    hidden: bool = False
    item: BatchItem | None = None
    deferral: Deferral = Deferral()


@dataclass(frozen=True)
class TaskOutcome:
    ok: bool
    value: Any = None
    error: dict[str, Any] | None = None
    mutated: tuple[str, ...] = ()
    stdout: str = ""
    warnings: tuple[str, ...] = ()
    """The distinct warnings the call raised (``RuntimeWarning: overflow encountered in exp``);
    a hidden call's are never read."""
    warned: bool = False
    """Whether the call raised any warning (all a hidden call tells of its warnings)."""
    generators: Mapping[str, GeneratorState] = field(default_factory=dict)
    """Where the call left each generator argument, by name (every one of them)."""
    calls: Mapping[str, int] = field(default_factory=dict)
    """How many times the call called each function argument (an author's function), by name
    (every one of them; a batch item's, a speed run's own calls apart). The learner's process
    reports it, so it is its code's word on its own calls (docs/security.md)."""


class Ending(Enum):
    """How a sandbox run ended."""

    COMPLETED = "completed"
    LOAD_ERROR = "load_error"
    TIMEOUT = "timeout"
    """Its processes together used up their CPU time."""
    WALL_LIMIT = "wall_limit"
    """Stopped by the wall-clock backstop, having spent most of it waiting (sleeping or
    blocked), not computing."""
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
    missing_layers: tuple[str, ...] = ()
    """Isolation layers this run went without (only ever with ``strict=False``)."""
    repeats: Growth | None = None
    """Where the code's Python work grew with the input over the public calls, when the
    tasks asked the sandbox to count it (``EncodedTasks.repeats``)."""
    hidden_started_at: float | None = None
    """``time.perf_counter()`` when the first hidden case was sent. From then on how the run
    ends and how long it takes are not the learner's to read."""
    usage: Usage | None = None
    """What the submission's processes used, as the zygote measured it: when every result
    was in, or when the sandbox ended. None if the zygote could not say."""
    case_cpu_s: dict[int, float] = field(default_factory=dict)
    """The sandbox's CPU time from sending each timed case to its results, by the index of
    the case's first task."""
    case_in_flight: int | None = None
    """The first task's index of the case sent one at a time whose results had not all come
    back when the run ended (None if none was)."""

    @property
    def hidden_started(self) -> bool:
        return self.hidden_started_at is not None

    @property
    def signal(self) -> int | None:
        if self.exit_code is not None and self.exit_code > EXIT_SIGNAL_BASE:
            return self.exit_code - EXIT_SIGNAL_BASE
        return None


@dataclass(frozen=True)
class EncodedTasks:
    """Tasks ready for the channel, the same for every submission to one exercise version, so
    the engine encodes them once.

    ``json``, ``buffers`` and ``sizes_json`` are the public tasks of the request (JSON, the
    distinct input buffers, their sizes); ``hidden`` the packed frame of each hidden case with
    the number of calls in it; ``names`` every task's argument names, public then hidden;
    ``deferrals`` how each hidden case is sent; ``generators`` the names of every task's
    generator arguments (a batch item's are its main call's), ``functions`` of its function
    arguments.
    """

    json: str
    buffers: tuple[bytes, ...]
    sizes_json: str
    names: tuple[tuple[str, ...], ...] = ()
    hidden: tuple[tuple[bytes, int], ...] = ()
    deferrals: tuple[Deferral, ...] = ()
    generators: tuple[frozenset[str], ...] = ()
    repeats: bool = False
    """The sandbox counts the code's repeated Python work during the public calls (an
    exercise that forbids Python loops: graders/sandbox/repeats.py)."""
    functions: tuple[frozenset[str], ...] = ()

    @property
    def public_count(self) -> int:
        return len(self.names) - sum(count for _frame, count in self.hidden)


def encode_tasks(tasks: Sequence[Task], *, repeats: bool = False) -> EncodedTasks:
    """Encode every task's inputs, sending each distinct buffer once per frame.

    A batch item's inputs are not sent at all: the sandbox takes them from its main call's.
    With ``repeats`` the sandbox counts the code's repeated work in the public calls.
    """
    first_hidden = next((i for i, task in enumerate(tasks) if task.hidden), len(tasks))
    public, hidden = tasks[:first_hidden], tasks[first_hidden:]
    if not all(task.hidden for task in hidden):
        raise ValueError("hidden tasks must come after every public task")
    # A case's results come back when its last call flushes it: none may stay open.
    if public and not public[-1].flush:
        raise ValueError("the last public task must end its case (flush)")
    if hidden and not hidden[-1].flush:
        raise ValueError("the last hidden task must end its case (flush)")
    encoded, buffers = encode_group(public)
    frames = []
    deferrals: list[Deferral] = []
    start = 0
    for end, task in enumerate(hidden, start=1):
        if task.flush:
            deferral = hidden[start].deferral
            # Text comes back from a shown case: no hidden input may be in the sandbox yet.
            if deferral.shown and not all(d.shown for d in deferrals):
                raise ValueError("a shown case must come before every hidden case")
            group, group_buffers = encode_group(hidden[start:end])
            header = {"kind": "hidden", "tasks": group} | (
                {"shown": True} if deferral.shown else {}
            )
            frames.append((b"".join(pack_frame(header, list(group_buffers))), end - start))
            deferrals.append(deferral)
            start = end
    return EncodedTasks(
        json.dumps(encoded, separators=(",", ":")),
        buffers,
        json.dumps([len(buffer) for buffer in buffers], separators=(",", ":")),
        tuple(task.names for task in tasks),
        tuple(frames),
        tuple(deferrals),
        arguments(tasks, lambda value: generator_state(value) is not None),
        repeats,
        arguments(tasks, lambda value: type(value) is InputFunction),
    )


def arguments(tasks: Sequence[Task], chosen: Callable[[Any], bool]) -> tuple[frozenset[str], ...]:
    """The names of each task's ``chosen`` arguments (its generators: those the sandbox
    reports the state of after the call; its functions: those it counts the calls of). A
    batch item has its main call's."""
    found: list[frozenset[str]] = []
    for task in tasks:
        if task.item is None:
            found.append(
                frozenset(
                    name for name, value in zip(task.names, task.args, strict=True) if chosen(value)
                )
            )
        else:
            found.append(found[-1])
    return tuple(found)


def encode_group(tasks: Sequence[Task]) -> tuple[list[dict[str, Any]], tuple[bytes, ...]]:
    if tasks and tasks[0].item is not None:
        raise ValueError("a batch item must follow its main call in the same frame")
    buffers: list[bytes | memoryview] = []
    args = [[encode_value(a, buffers) for a in task.args] for task in tasks]
    distinct: dict[bytes, int] = {}
    renumbered = [distinct.setdefault(bytes(buffer), len(distinct)) for buffer in buffers]
    for nodes in args:
        for node in nodes:
            _renumber_buffers(node, renumbered)
    encoded = [
        {"names": list(task.names), "args": nodes, "flush": task.flush}
        if task.item is None
        else {
            "names": list(task.names),
            "item": task.item.index,
            "axes": dict(task.item.axes),
            "keep": task.item.keep_axis,
            "flush": task.flush,
        }
        for task, nodes in zip(tasks, args, strict=True)
    ]
    return encoded, tuple(distinct)


def _renumber_buffers(node: dict[str, Any], renumbered: list[int]) -> None:
    if "b" in node:
        node["b"] = renumbered[node["b"]]
    for item in node.get("items", ()):
        _renumber_buffers(item, renumbered)


def request_frame(code: str, entry: str, tasks: EncodedTasks) -> list[bytes | memoryview]:
    """The request frame: only the code and the entry name are new for each submission."""
    header = (
        f'{{"code":{json.dumps(code)},"entry":{json.dumps(entry)},'
        f'"tasks":{tasks.json},"hidden":{len(tasks.hidden)},'
        f'"repeats":{json.dumps(tasks.repeats)},'
        f'"buffers":{tasks.sizes_json}}}'
    ).encode()
    return [HEADER.pack(len(header)), header, *tasks.buffers]


class Phase(Enum):
    """Where the conversation is, which decides the frames that may come next."""

    LOADING = "loading"
    PUBLIC = "public"
    HIDDEN = "hidden"


class Next(Enum):
    """What a frame asks of this side."""

    READ = "read"
    SEND_CASE = "send the next hidden case"
    STOP = "stop"


@dataclass
class Conversation:
    """What this side expects next; ``apply`` folds one frame into ``result``."""

    tasks: EncodedTasks
    result: RunResult = field(default_factory=lambda: RunResult(Ending.CRASHED))
    phase: Phase = Phase.LOADING
    next_index: int = 0
    sent_cases: int = 0
    case_start: int = 0
    """The index of the first call of the hidden case in flight."""
    case_end: int = 0
    """The index after the last call of the hidden case in flight."""
    deferral: Deferral = Deferral()
    """How the case in flight was sent."""

    def next_case(self) -> bytes | None:
        """The next hidden case's frame, once every result before it is in; None when done."""
        if self.sent_cases == len(self.tasks.hidden):
            self.result.ending = Ending.COMPLETED
            return None
        frame, count = self.tasks.hidden[self.sent_cases]
        self.deferral = self.tasks.deferrals[self.sent_cases]
        self.sent_cases += 1
        self.case_start = self.result.case_in_flight = self.next_index
        self.case_end = self.next_index + count
        self.phase = Phase.HIDDEN
        if not self.deferral.shown and not self.result.hidden_started:
            self.result.hidden_started_at = time.perf_counter()
        return frame

    def apply(self, header: dict[str, Any], buffers: list[memoryview]) -> Next:
        """Fold one frame in and say what to do next."""
        kind = header["kind"]
        if self.phase is Phase.LOADING:
            return self._apply_loading(kind, header)
        if kind != "results":
            if (
                kind == "public_done"
                and self.phase is Phase.PUBLIC
                and self.next_index == self.tasks.public_count
            ):
                self.result.dropped_chars = int(header.get("dropped_chars", 0))
                if self.tasks.repeats and header.get("repeats") is not None:
                    self.result.repeats = Growth.from_dict(dict(header["repeats"]))
                return Next.SEND_CASE
            raise WireError(f"unexpected frame kind {str(kind)[:40]!r}")
        results = header["results"]
        if not isinstance(results, list) or not results:
            raise WireError("a results frame without results")
        end = self.tasks.public_count if self.phase is Phase.PUBLIC else self.case_end
        if header["first"] != self.next_index or self.next_index + len(results) > end:
            raise WireError("a result out of order")
        for result in results:
            if not isinstance(result, dict):
                raise WireError("a result that is not an object")
            self._apply_result(result, buffers)
        if self.phase is Phase.HIDDEN and self.next_index == self.case_end:
            self.result.case_in_flight = None
            return Next.SEND_CASE
        return Next.READ

    def _apply_result(self, header: dict[str, Any], buffers: list[memoryview]) -> None:
        index = self.next_index
        self.next_index += 1
        names = self.tasks.names[index]
        mutated: tuple[str, ...] = ()
        if header.get("mutated"):  # most calls change nothing
            mutated = tuple(str(name) for name in header["mutated"])
            if not set(mutated) <= set(names) or len(set(mutated)) != len(mutated):
                raise WireError("changed inputs that are not arguments of the call")
        generators = self._generator_states(index, header.get("generators", {}))
        calls = self._calls(index, header.get("calls", {}))
        ok = bool(header["ok"])
        value = decode_value(header["value"], buffers) if ok else None
        if self.phase is Phase.HIDDEN and not self.deferral.shown:
            hidden_type = None if ok else dict(header["error"]).get("type")
            error = (
                None
                if ok
                else {"type": hidden_type if hidden_type in HIDDEN_ERROR_TYPES else "Exception"}
            )
            self.result.outcomes[index] = TaskOutcome(
                ok,
                value,
                error,
                mutated,
                warned=header.get("warned") is True,
                generators=generators,
                calls=calls,
            )
            return
        texts = tuple(
            str(text)[:MAX_WARNING_CHARS]
            for text in list(header.get("warnings", ()))[:MAX_WARNINGS]
        )
        self.result.outcomes[index] = TaskOutcome(
            ok=ok,
            value=value,
            error=None if ok else dict(header["error"]),
            mutated=mutated,
            stdout=str(header.get("stdout", "")),
            warnings=texts,
            warned=bool(texts),
            generators=generators,
            calls=calls,
        )

    def _generator_states(self, index: int, reported: Any) -> dict[str, GeneratorState]:
        """The states a result reports of its call's generators: exactly one per generator
        argument of the call (names of other arguments, or any other value, are refused)."""
        expected = self.tasks.generators[index] if self.tasks.generators else frozenset()
        if not isinstance(reported, dict) or set(reported) != expected:
            raise WireError("generator states that are not those of the call's generators")
        return {name: checked_generator_state(numbers) for name, numbers in reported.items()}

    def _calls(self, index: int, reported: Any) -> dict[str, int]:
        """The counts a result reports of its call's function arguments: exactly one per
        function argument, each an int in [0, ``MAX_NUMBER``) (anything else is refused)."""
        expected = self.tasks.functions[index] if self.tasks.functions else frozenset()
        if not (
            isinstance(reported, dict)
            and set(reported) == expected
            and all(type(n) is int and 0 <= n < MAX_NUMBER for n in reported.values())
        ):
            raise WireError("call counts that are not those of the call's functions")
        return dict(reported)

    def _apply_loading(self, kind: Any, header: dict[str, Any]) -> Next:
        result = self.result
        if kind == "setup_error":
            # Believed only with the zygote's exit code; submitted code could forge the frame.
            result.message = str(header["message"])[:500]
        elif kind == "load_error":
            result.ending = Ending.LOAD_ERROR
            result.load_error = dict(header["error"])
            result.load_stdout = str(header.get("stdout", ""))
        elif kind == "loaded":
            result.load_stdout = str(header.get("stdout", ""))
            self.phase = Phase.PUBLIC
            return Next.READ
        else:
            raise WireError(f"unexpected frame kind {str(kind)[:40]!r}")
        return Next.STOP


def exchange(
    channel: socket.socket,
    code: str,
    entry: str,
    tasks: EncodedTasks,
    deadline: float,
    limits: SandboxLimits,
    clock: CpuClock | None = None,
) -> RunResult:
    """Hold the whole conversation of one submission on ``channel``; ``clock`` reads the
    sandbox's CPU time around each timed case (without it, timed cases are not timed)."""
    conversation = Conversation(tasks)
    result = conversation.result
    # If the sandbox ended before reading, its frames or its exit code say why.
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        send_pieces(channel, request_frame(code, entry, tasks))
    started_cpu = 0.0
    budget = [limits.max_output_mb * 1024 * 1024]
    headers = HeaderBudget(MAX_RESULT_HEADER_BYTES, MAX_RESULT_VALUES)
    reader = channel.makefile("rb")
    while True:
        channel.settimeout(max(deadline - time.monotonic(), 0.01))
        try:
            header, buffers = recv_frame(reader, budget, headers)
        except EOFError:
            return result
        except TimeoutError:
            result.ending = Ending.TIMEOUT
            return result
        except HeaderTooComplex:
            result.ending = Ending.OUTPUT_LIMIT
            result.message = (
                f"the output is too large: a submission's results may hold at most "
                f"{MAX_RESULT_VALUES} values (items of lists and tuples; printed text and "
                f"messages count too) and {MAX_RESULT_HEADER_BYTES // 1024 // 1024} MB "
                f"besides arrays, with lists and tuples nested at most {MAX_VALUE_NESTING} "
                "deep"
            )
            return result
        except FrameTooLarge:
            result.ending = Ending.OUTPUT_LIMIT
            result.message = f"the output is too large (limit {limits.max_output_mb} MB)"
            return result
        except WireError as exc:
            result.ending = Ending.PROTOCOL_ERROR
            result.message = f"the sandbox sent a malformed message: {exc}"
            return result
        except OSError:
            return result
        try:
            step = conversation.apply(header, buffers)
        except Exception as exc:  # every frame is hostile: never crash on one
            result.ending = Ending.PROTOCOL_ERROR
            result.message = f"the sandbox sent a malformed message: {exc!r}"
            return result
        if step is Next.STOP:
            return result
        if step is Next.SEND_CASE:
            if clock is not None and conversation.deferral.timed:  # the case just answered
                result.case_cpu_s[conversation.case_start] = clock(None) - started_cpu
            frame = conversation.next_case()
            if frame is None:
                return result
            if clock is not None and conversation.deferral.timed:
                started_cpu = clock(conversation.deferral.limit_s)
            try:
                channel.sendall(frame)
            except TimeoutError:
                result.ending = Ending.TIMEOUT
                return result
            except OSError:
                return result
