"""The code that runs inside the sandbox, after every isolation layer is in place.

The conversation on the channel (frames as in ``graders/sandbox/wire.py``), in this order:

1. request (trusted side): ``{"code", "entry", "tasks": [public task, ...], "hidden": H,
   "repeats": bool}``
   (``entry``: the function each task calls, or ``scenario:f,g`` for an exercise whose cases
   are scenarios, each one task whose first argument is its steps: graders/sandbox/scenario.py)
   with the public tasks' input buffers. A task is ``{"names": [...], "args": [values],
   "flush": bool}``; ``flush`` closes a case. A batch item of a case's main call is
   ``{"names", "item": i, "axes": {name: axis}, "keep", "flush"}``: its inputs are those of
   the latest task before it with ``"args"``, each input named in ``axes`` taken at index
   ``i`` along that axis (as a batch of one, the axis kept, where ``keep``), so they are not
   sent twice.
2. ``{"kind": "loaded", "stdout"}`` once the code ran, or ``{"kind": "load_error", "error",
   "stdout"}`` and the end.
3. per public case, one frame: ``{"kind": "results", "first", "results": [result, ...]}``,
   the results of the case's calls in order, ``first`` the index of the first (tasks are
   numbered from 0, public then hidden). A public result is ``{"ok", "value" | "error",
   "mutated", "generators", "warnings", "stdout"}``; the values' buffers are the frame's,
   numbered across all of its results. ``generators`` (only for a call with generator
   arguments) holds each generator argument's state after the call, by name, as the four
   integers the wire carries a generator by: whether the call drew from the caller's
   generator exactly as the statement says is judged on it. ``calls`` (only for a call with
   function arguments: an author's functions, ``graders/callables.py``) holds how many times
   the call called each of them, by name: each call of the entry gets wrappers of its own
   (``counted``), so a batch item's or a speed run's calls are never added to the main call's.
4. ``{"kind": "public_done", "dropped_chars"}``, with ``"repeats"`` when the request asked
   for it (``"repeats": true``, an exercise that forbids Python loops): where the code's
   Python work grew with the input over the public calls (``Growth.to_dict``), or null
   (graders/sandbox/repeats.py). From here on whatever the code prints is dropped, not
   counted, and nothing is counted.
5. H times: the trusted side sends ``{"kind": "hidden", "tasks": [...]}``, the calls of one
   hidden case (its main call, then its batch items, which are parts of the main call's
   inputs), only once the previous hidden case's results came back; the sandbox answers with
   one ``results`` frame whose results are ``{"ok", "value" | "error": {"type"}, "mutated",
   "generators", "calls", "warned"}``: no text, no timing, an exception described by
   ``MemoryError``, a scenario runner's finding (``NotUpdatedInPlace``, ``WrongReturn``) or
   ``Exception`` alone, and of warnings only whether there was one. A frame marked
   ``"shown": true`` holds a public case that the trusted side times (protocol.py,
   ``Deferral``); it comes before any hidden case, and its results are public ones.

A case's results leave in one write, once its last call returned. The trusted side accepts
them split over several ``results`` frames too (each with at least one result, none past the
case), so the frame header cap applies to each frame a sandbox chooses to send.

So no hidden input is in this process before the call that receives it: not at import time,
not during a public call, not during an earlier hidden case. The harness never sees an
expected output; the trusted side compares, and believes nothing from here that it cannot
check itself.
"""

from __future__ import annotations

import builtins
import copy
import io
import socket
import sys
import traceback
import types
import warnings
from collections.abc import Sequence
from typing import Any, BinaryIO

import numpy as np

from graders.sandbox import repeats, scenario, wire
from graders.sandbox.repeats import RepeatCounter, elements, growth
from graders.sandbox.scenario import resolve_entry
from graders.sandbox.sealed import seal
from graders.sandbox.wire import (
    FUNCTION_FILE,
    decode_value,
    encode_value,
    generator_state,
    pack_frame,
    recv_frame,
    send_frame,
)
from graders.values import Measured

SUBMISSION_FILE = "submission.py"
MAX_REQUEST_BYTES = 1 << 30
MAX_ERROR_CHARS = 4000
MAX_WARNINGS = 5
MAX_WARNING_CHARS = 200
FUNCTIONS_BY_LINE: dict[int, str] = {}
"""The function of the submission each of its lines belongs to, once it is loaded: a public
warning says where it was raised. (One submission per sandbox process.)"""


class CappedText(io.TextIOBase):
    """A text sink that keeps at most ``limit`` characters in all and drops the rest."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.kept = 0
        self.dropped = 0
        self.pending: list[str] = []

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        text = str(text)
        room = max(self.limit - self.kept, 0)
        self.pending.append(text[:room])
        self.kept += min(len(text), room)
        self.dropped += max(len(text) - room, 0)
        return len(text)

    def take(self) -> str:
        text = "".join(self.pending)
        self.pending.clear()
        return text


class Discard(io.TextIOBase):
    """Where the code's printing goes once hidden inputs are in the process."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        return len(text)


def describe_exception(exc: BaseException) -> dict[str, Any]:
    """Type, message and the learner's own frames of the traceback (not the harness's). The
    message ends with the exception's notes: a scenario's names the step that raised."""
    notes = getattr(exc, "__notes__", None)
    notes = [str(note) for note in notes] if type(notes) is list else []
    every_frame = traceback.extract_tb(exc.__traceback__)
    frames = [f for f in every_frame if f.filename == SUBMISSION_FILE]
    # An author's function given as an input (its file is "<function name>": wire.py) is
    # named, not shown: the learner's line that called it is the line told.
    inside = [f.filename for f in every_frame if f.filename.startswith(FUNCTION_FILE)]
    if inside:
        notes.append(f"in {inside[-1]}")
    line = frames[-1].lineno if frames else getattr(exc, "lineno", None)
    lines = traceback.format_list(frames) + traceback.format_exception_only(type(exc), exc)
    return {
        "type": type(exc).__name__,
        "message": "".join([str(exc), *(f" ({note})" for note in notes)])[:MAX_ERROR_CHARS],
        "line": line,
        "traceback": "".join(lines)[-MAX_ERROR_CHARS:],
    }


def load_submission(code: str, entry: str) -> Any:
    namespace: dict[str, Any] = {
        "__name__": "submission",
        "__builtins__": builtins,
        "__file__": SUBMISSION_FILE,
    }
    module = compile(code, SUBMISSION_FILE, "exec")
    FUNCTIONS_BY_LINE.update(functions_by_line(module))
    exec(module, namespace)
    return resolve_entry(namespace, entry)


def functions_by_line(code: types.CodeType, name: str | None = None) -> dict[int, str]:
    """Each line of ``code``'s functions with the innermost named function it belongs to (a
    comprehension's or a lambda's lines go to the function around it; the module's to none)."""
    lines: dict[int, str] = {}
    if name is not None:
        lines.update((line, name) for _, _, line in code.co_lines() if line is not None)
    for inner in code.co_consts:
        if isinstance(inner, types.CodeType):
            named = name if inner.co_name.startswith("<") else inner.co_name
            lines.update(functions_by_line(inner, named))
    return lines


def writable_copy(value: Any) -> Any:
    """A copy the call may change: arrays, the containers that hold them, and a generator
    (each call draws from the case's own state, and where the call leaves it is reported:
    ``generator_states``). The decoded inputs are plain values, so no learner code runs
    here."""
    if isinstance(value, np.ndarray):
        return np.array(value)
    if isinstance(value, list | tuple):
        return type(value)(writable_copy(item) for item in value)
    if isinstance(value, dict):
        return {key: writable_copy(item) for key, item in value.items()}
    if isinstance(value, np.random.Generator):
        return copy.deepcopy(value)
    return value


def changed_inputs(names: list[str], args: list[Any], pristine: list[Any]) -> list[str]:
    """Inputs that differ from the read-only originals they were copied from: an array's
    bytes, or the arrays and entries of a list, tuple or dict (a generator is there to be
    drawn from)."""
    return [
        name
        for name, now, before in zip(names, args, pristine, strict=True)
        if not unchanged(now, before)
    ]


def generator_states(
    names: list[str], args: list[Any], pristine: list[Any]
) -> dict[str, list[int]]:
    """Where the call left each generator argument: the state of the copy it was given, read
    by exact type (``wire.generator_state``), so no method of the learner's runs here."""
    states = {}
    for name, now, before in zip(names, args, pristine, strict=True):
        state = generator_state(now) if isinstance(before, np.random.Generator) else None
        if state is not None:
            states[name] = list(state)
    return states


def unchanged(now: Any, before: Any) -> bool:
    # Inside a container, ``now`` may be an object the call put there: only exact types are
    # read, so no method of the learner's runs here.
    if isinstance(before, np.ndarray):
        return (
            type(now) is np.ndarray
            and now.shape == before.shape
            and now.tobytes() == before.tobytes()
        )
    if isinstance(before, list | tuple):
        return (
            type(now) is type(before)
            and len(now) == len(before)
            and all(unchanged(a, b) for a, b in zip(now, before, strict=True))
        )
    if isinstance(before, dict):
        return (
            type(now) is dict
            and all(type(key) is str for key in now)
            and list(now) == list(before)
            and all(unchanged(now[key], before[key]) for key in before)
        )
    return True


def warning_texts(caught: list[warnings.WarningMessage]) -> list[str]:
    """The distinct warnings of one call, with where the submission raised them
    ("RuntimeWarning: overflow encountered in exp (line 5, in softmax)")."""
    texts = dict.fromkeys(
        f"{w.category.__name__}: {w.message}{raised_where(w)}"[:MAX_WARNING_CHARS] for w in caught
    )
    return list(texts)[:MAX_WARNINGS]


def raised_where(warning: warnings.WarningMessage) -> str:
    """`` (line 5, in softmax)`` for a warning raised by a line of the submission, else ""."""
    if warning.filename != SUBMISSION_FILE:
        return ""
    function = FUNCTIONS_BY_LINE.get(warning.lineno)
    return f" (line {warning.lineno}" + (f", in {function})" if function else ")")


def task_inputs(task: dict[str, Any], buffers: Sequence[memoryview], main: list[Any]) -> list[Any]:
    """A task's read-only inputs: decoded, or for a batch item taken from ``main``, the
    inputs of the call it is an item of."""
    if "item" not in task:
        return [decode_value(node, buffers, functions=True) for node in task["args"]]
    item, axes, keep = int(task["item"]), dict(task["axes"]), task.get("keep") is True
    return [
        batch_item(value, item, axes[name], keep) if name in axes else value
        for name, value in zip(task["names"], main, strict=True)
    ]


def batch_item(value: np.ndarray, index: int, axis: int, keep: bool = False) -> np.ndarray:
    """Element ``index`` of ``value`` along ``axis``, as ``value.take(index, axis)`` gives it
    (``take([index], axis)`` where ``keep``: a batch of one) but as a view: ``take`` copies,
    through a path ten times slower than indexing, and the call copies its inputs anyway
    (``writable_copy``)."""
    at: int | slice = slice(index, index + 1) if keep else index
    return value[(slice(None),) * (axis % value.ndim) + (at,)]


def counting(function: Any, count: list[int]) -> Any:
    """The body of every counting wrapper (``counted``): its code, never this function."""

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        count[0] += 1
        return function(*args, **kwargs)

    return wrapper


def counted(function: types.FunctionType, count: list[int]) -> types.FunctionType:
    """``function``, adding one to ``count[0]`` at each call. The wrapper is made over
    ``function``'s own globals, file name and name, not the harness's: the learner's code
    sees it (``f.__globals__``, ``f.__name__``) as it would see ``function``, and reaches no
    namespace of the harness through it. It can reach the count all the same
    (``f.__closure__``): the count is its own report of its own calls (docs/security.md)."""
    template = counting(function, count)
    code = template.__code__.replace(
        co_filename=function.__code__.co_filename,
        co_name=function.__name__,
        co_qualname=function.__qualname__,
    )
    made = types.FunctionType(
        code, function.__globals__, function.__name__, None, template.__closure__
    )
    made.__wrapped__ = function  # type: ignore[attr-defined]  # its signature, for inspect
    return made


def call(
    function: Any, names: list[str], pristine: list[Any]
) -> tuple[dict[str, Any], list[bytes | memoryview], BaseException | None]:
    """Call the function on fresh copies of the task's read-only inputs, each function input
    (an author's, re-created: no other function crosses the channel) wrapped to count its
    calls in this call alone."""
    counts = {
        name: [0]
        for name, value in zip(names, pristine, strict=True)
        if isinstance(value, types.FunctionType)
    }
    args = [
        counted(value, counts[name]) if name in counts else writable_copy(value)
        for name, value in zip(names, pristine, strict=True)
    ]
    out_buffers: list[bytes | memoryview] = []
    try:
        value = function(*args)
        header: dict[str, Any] = {"ok": True, "value": encode_value(value, out_buffers)}
        raised = None
    except BaseException as exc:  # the learner's code may raise anything, SystemExit too
        out_buffers.clear()
        header, raised = {"ok": False}, exc
    header["mutated"] = changed_inputs(names, args, pristine)
    states = generator_states(names, args, pristine)
    if states:
        header["generators"] = states
    if counts:
        # Not int(): a count the code replaced would run its __int__ here. -1 is refused.
        header["calls"] = {
            name: count[0] if type(count[0]) is int else -1 for name, count in counts.items()
        }
    return header, out_buffers, raised


def run_public(
    function: Any, names: list[str], pristine: list[Any], stdout: CappedText
) -> tuple[dict[str, Any], list[bytes | memoryview]]:
    # The learner's own warning filters apply; each distinct warning is recorded once per call.
    with warnings.catch_warnings(record=True) as caught:
        header, out_buffers, raised = call(function, names, pristine)
        if raised is not None:
            header["error"] = describe_exception(raised)
    header["warnings"] = warning_texts(caught)
    header["stdout"] = stdout.take()
    return header, out_buffers


def run_measured(
    function: Any,
    names: list[str],
    pristine: list[Any],
    stdout: CappedText,
    measured: list[Measured] | None,
) -> tuple[dict[str, Any], list[bytes | memoryview]]:
    """A public call, its repeated work counted into ``measured`` unless that is None (an
    exercise that does not forbid Python loops: graders/sandbox/repeats.py)."""
    if measured is None:
        return run_public(function, names, pristine, stdout)
    with RepeatCounter() as counter:
        ran = run_public(function, names, pristine, stdout)
    measured.append(Measured(elements(pristine), counter.most))
    return ran


def run_hidden(
    function: Any, names: list[str], pristine: list[Any]
) -> tuple[dict[str, Any], list[bytes | memoryview]]:
    # Whether the call warned, never which warning: an exercise may count a warning as a
    # failure, and the warning's text could carry the hidden inputs.
    with warnings.catch_warnings(record=True) as caught:
        header, out_buffers, raised = call(function, names, pristine)
    header["warned"] = bool(caught)
    if raised is not None:
        header["error"] = {"type": hidden_error_type(raised)}
    return header, out_buffers


def hidden_error_type(raised: BaseException) -> str:
    """All a hidden call's exception tells: ``MemoryError``, one of the scenario runner's own
    findings (``NotUpdatedInPlace``: the learner raised nothing), or ``Exception``."""
    if isinstance(raised, MemoryError):
        return "MemoryError"
    if type(raised) in scenario.RUNNER_FINDINGS:
        return type(raised).__name__
    return "Exception"


def serve(channel: socket.socket, max_stdout_chars: int) -> None:
    """Hold the one conversation waiting on ``channel``, then return.

    Through the harness's sealed copy of itself (``SEALED``), in a process whose engine
    modules are out of ``sys.modules`` (``forget_engine_modules``, which the zygote calls
    before its first fork): the submission can neither name the modules nor, by rebinding a
    name in one, change a check judged here."""
    SEALED["converse"](channel, max_stdout_chars)


def forget_engine_modules() -> None:
    """Take ``graders`` and every ``graders.*`` module out of ``sys.modules``; the names bound
    to them stay. Once, in the zygote, rather than in each sandbox: walking ``sys.modules``
    writes to every page that holds one of its names (their reference counts), and in a
    forked sandbox each such page is copied, about 170 of its 1,200 copies."""
    for name in [name for name in sys.modules if name.partition(".")[0] == "graders"]:
        del sys.modules[name]


def converse(channel: socket.socket, max_stdout_chars: int) -> None:
    reader = channel.makefile("rb")
    request, buffers = recv_frame(reader, [MAX_REQUEST_BYTES])
    stdout = CappedText(max_stdout_chars)
    sys.stdout = sys.stderr = stdout
    try:
        function = load_submission(request["code"], request["entry"])
    except BaseException as exc:
        send_frame(
            channel,
            {"kind": "load_error", "error": describe_exception(exc), "stdout": stdout.take()},
        )
        return
    send_frame(channel, {"kind": "loaded", "stdout": stdout.take()})
    index = 0
    case: list[dict[str, Any]] = []
    case_buffers: list[bytes | memoryview] = []
    main: list[Any] = []
    measured: list[Measured] | None = [] if request.get("repeats") is True else None
    for task in request["tasks"]:
        pristine = task_inputs(task, buffers, main)
        main = main if "item" in task else pristine
        names = list(task["names"])
        add_result(case, case_buffers, *run_measured(function, names, pristine, stdout, measured))
        if task.get("flush", True):
            channel.sendall(b"".join(results_frame(index, case, case_buffers)))
            index += len(case)
            case, case_buffers = [], []
    done: dict[str, Any] = {"kind": "public_done", "dropped_chars": stdout.dropped}
    if measured is not None:
        grew = growth(measured)
        done["repeats"] = grew.to_dict() if grew else None
    send_frame(channel, done)
    sys.stdout = sys.stderr = Discard()
    hidden_cases = int(request["hidden"])
    del request, buffers
    for _ in range(hidden_cases):
        index = serve_hidden_case(channel, reader, function, index, stdout)


def serve_hidden_case(
    channel: socket.socket, reader: BinaryIO, function: Any, index: int, stdout: CappedText
) -> int:
    """Receive one hidden case, run its calls, answer in one frame; its inputs go out of scope
    on return. A shown case's calls are run and answered as public ones."""
    group, buffers = recv_frame(reader, [MAX_REQUEST_BYTES])
    shown = group.get("shown") is True
    sys.stdout = sys.stderr = stdout if shown else Discard()
    case: list[dict[str, Any]] = []
    case_buffers: list[bytes | memoryview] = []
    main: list[Any] = []
    for task in group["tasks"]:
        pristine = task_inputs(task, buffers, main)
        main = main if "item" in task else pristine
        names = list(task["names"])
        ran = (
            run_public(function, names, pristine, stdout)
            if shown
            else run_hidden(function, names, pristine)
        )
        add_result(case, case_buffers, *ran)
    sys.stdout = sys.stderr = Discard()
    channel.sendall(b"".join(results_frame(index, case, case_buffers)))
    return index + len(case)


def add_result(
    case: list[dict[str, Any]],
    case_buffers: list[bytes | memoryview],
    header: dict[str, Any],
    out_buffers: list[bytes | memoryview],
) -> None:
    """Append one call's result to its case's frame, its buffers numbered after the case's."""
    if case_buffers and "value" in header:
        shift_buffers(header["value"], len(case_buffers))
    case.append(header)
    case_buffers += out_buffers


def shift_buffers(node: dict[str, Any], offset: int) -> None:
    if "b" in node:
        node["b"] += offset
    for item in node.get("items", ()):
        shift_buffers(item, offset)


def results_frame(
    first: int, case: list[dict[str, Any]], case_buffers: list[bytes | memoryview]
) -> list[bytes | memoryview]:
    return pack_frame({"kind": "results", "first": first, "results": case}, case_buffers)


SEALED = seal([wire, repeats, scenario, sys.modules[__name__]])[-1]
"""The harness's own namespace, as it was before any submitted code ran, over the sealed
copies of the wire's, the repeats tracer's and the scenario runner's (graders/sandbox/sealed.py)."""
