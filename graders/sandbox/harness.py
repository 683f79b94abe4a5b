"""The code that runs inside the sandbox, after every isolation layer is in place.

It reads one request (the submission's code, the entry name and the tasks' inputs), runs the
code, calls the entry function once per task and streams one frame per task back: the output
value, what was printed, and which inputs the function changed in place. It never sees an
expected output; the trusted side compares.
"""

from __future__ import annotations

import builtins
import io
import socket
import sys
import time
import traceback
import warnings
from typing import Any

import numpy as np

from graders.wire import decode_value, encode_value, pack_frame, recv_frame, send_frame

SUBMISSION_FILE = "submission.py"
MAX_REQUEST_BYTES = 1 << 30
MAX_ERROR_CHARS = 4000
MAX_WARNINGS = 5
MAX_WARNING_CHARS = 200


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


def describe_exception(exc: BaseException) -> dict[str, Any]:
    """Type, message and the learner's own frames of the traceback (not the harness's)."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == SUBMISSION_FILE]
    line = frames[-1].lineno if frames else getattr(exc, "lineno", None)
    lines = traceback.format_list(frames) + traceback.format_exception_only(type(exc), exc)
    return {"type": type(exc).__name__, "message": str(exc)[:MAX_ERROR_CHARS], "line": line,
            "traceback": "".join(lines)[-MAX_ERROR_CHARS:]}


def load_submission(code: str, entry: str) -> Any:
    namespace: dict[str, Any] = {"__name__": "submission", "__builtins__": builtins,
                                 "__file__": SUBMISSION_FILE}
    exec(compile(code, SUBMISSION_FILE, "exec"), namespace)
    function = namespace.get(entry)
    if not callable(function):
        raise NameError(f"the code does not define a function named '{entry}'")
    return function


def writable_copy(value: Any) -> Any:
    return np.array(value) if isinstance(value, np.ndarray) else value


def changed_inputs(names: list[str], args: list[Any], pristine: list[Any]) -> list[str]:
    """Inputs whose bytes differ from the read-only originals they were copied from."""
    return [name for name, now, before in zip(names, args, pristine, strict=True)
            if isinstance(before, np.ndarray)
            and (now.shape != before.shape or now.tobytes() != before.tobytes())]


def warning_texts(caught: list[warnings.WarningMessage]) -> list[str]:
    """The distinct warnings of one call ("RuntimeWarning: overflow encountered in exp")."""
    texts = dict.fromkeys(f"{w.category.__name__}: {w.message}"[:MAX_WARNING_CHARS]
                          for w in caught)
    return list(texts)[:MAX_WARNINGS]


def run_task(function: Any, names: list[str], args: list[Any], pristine: list[Any],
             stdout: CappedText) -> tuple[dict[str, Any], list[bytes | memoryview]]:
    """Call the function on ``args``, fresh copies of the read-only ``pristine`` inputs."""
    started = time.perf_counter()
    buffers: list[bytes | memoryview] = []
    # The learner's own warning filters apply; each distinct warning is recorded once per call.
    with warnings.catch_warnings(record=True) as caught:
        try:
            value = function(*args)
            header: dict[str, Any] = {"ok": True, "value": encode_value(value, buffers)}
        except BaseException as exc:  # the learner's code may raise anything, SystemExit too
            buffers.clear()
            header = {"ok": False, "error": describe_exception(exc)}
    header["seconds"] = time.perf_counter() - started
    header["warnings"] = warning_texts(caught)
    header["mutated"] = changed_inputs(names, args, pristine)
    header["stdout"] = stdout.take()
    return header, buffers


def serve(channel: socket.socket, max_stdout_chars: int) -> None:
    """Handle the one request waiting on ``channel``, then return."""
    request, buffers = recv_frame(channel.makefile("rb"), [MAX_REQUEST_BYTES])
    stdout = CappedText(max_stdout_chars)
    sys.stdout = sys.stderr = stdout
    try:
        function = load_submission(request["code"], request["entry"])
    except BaseException as exc:
        send_frame(channel, {"kind": "load_error", "error": describe_exception(exc),
                             "stdout": stdout.take()})
        return
    send_frame(channel, {"kind": "loaded", "stdout": stdout.take()})
    unsent: list[bytes | memoryview] = []
    for index, task in enumerate(request["tasks"]):
        names = list(task["names"])
        pristine = [decode_value(node, buffers) for node in task["args"]]
        args = [writable_copy(value) for value in pristine]
        header, out_buffers = run_task(function, names, args, pristine, stdout)
        unsent += pack_frame({"kind": "task", "index": index, **header}, out_buffers)
        if task.get("flush", True):
            channel.sendall(b"".join(unsent))
            unsent.clear()
    send_frame(channel, {"kind": "done", "dropped_chars": stdout.dropped})
