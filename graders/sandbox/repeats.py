"""Inside the sandbox: how often the submission's own Python code repeats during a public
call, for an exercise that forbids Python loops (``[rules] forbid = ["python-loop"]``).

The syntax tree (graders/checks/rules.py) refuses the loops it can see. What it cannot see
runs here: code without a loop statement and without recursion executes each of its
instructions at most once per call of its function, and calls each function at most once
per call instruction executed, so its Python work does not depend on the input. Work that
does is one of

- a line run again in the same frame (a loop the tree did not show);
- a function of the submission entered again from the same caller at the same instruction:
  called back by C code (``map``, ``sorted(key=...)``, ``np.vectorize``, a generator
  resumed by ``sum``) or by a library's loop (``np.apply_along_axis``);
- a function of the submission entered while it is already running (recursion).

:class:`RepeatCounter`, installed with ``sys.settrace`` around one public call
(``with RepeatCounter()``), counts the largest of these. :func:`growth` compares the public
calls: a count of at least 2 that is larger on a larger input is work that grows with the
input, and the code is refused with where it repeated. A count that stays the same
(``max(a, b, key=f)`` calls ``f`` twice on any input) is let be up to :data:`ALWAYS_A_LOOP`:
a piece repeated that often in one call is a loop over a size the public inputs happen to
share (three hidden units in both), refused whatever the sizes.

Nothing is counted during hidden calls: the tracer is installed only around public ones, and
what leaves the sandbox (the ``public_done`` frame's ``repeats``) is computed before any
hidden input is in the process.
"""

from __future__ import annotations

import inspect
import os
import types
from collections.abc import Sequence
from sys import gettrace, settrace
from typing import Any

import numpy as np

from graders.values import MAX_NAME_CHARS, Growth, Measured, Repeat, RepeatKind

SUBMISSION_FILES = frozenset({"submission.py", "<string>"})
"""The files of the submission's code objects: its own, and code it compiled (``exec`` is
refused on the tree; this is where it would run anyway)."""
SANDBOX_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep
"""The harness and the scenario runner, which call the submission once per task or step."""
SUSPENDING = inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR
ALWAYS_A_LOOP = 3
"""Repeats in one call that no loop-free code makes, whatever the sizes: a line runs once per
call of its function, a line calls a function once per instruction, and a key function over
two values (``max(a, b, key=f)``) is called twice."""


NONE = Repeat(1, 0)


class RepeatCounter:
    """A ``sys.settrace`` function counting the submission's repeated work (module doc)."""

    def __init__(self) -> None:
        self.most = NONE
        # Keyed by frames (not their ids, which a later frame may take) and dropped when the
        # frame returns, so a million calls hold no million frames.
        self.lines: dict[types.FrameType, dict[int, int]] = {}
        self.entries: dict[types.FrameType, dict[tuple[int, types.CodeType], int]] = {}
        self.depth: dict[types.CodeType, int] = {}
        self.previous: Any = None

    def __call__(self, frame: types.FrameType, event: str, arg: Any) -> Any:
        code = frame.f_code
        if event != "call" or code.co_filename not in SUBMISSION_FILES:
            return None
        name = code.co_name[:MAX_NAME_CHARS]
        depth = self.depth[code] = self.depth.get(code, 0) + 1
        self.note(Repeat(depth, code.co_firstlineno, RepeatKind.RECURSION, name))
        caller = frame.f_back
        if caller is None or caller.f_code.co_filename.startswith(SANDBOX_DIR):
            # The harness's own calls, one per task or per step of a scenario: not the code's.
            return self.local
        calls = self.entries.setdefault(caller, {})
        key = (caller.f_lasti, code)
        entries = calls[key] = calls.get(key, 0) + 1
        if caller.f_code.co_filename in SUBMISSION_FILES:
            self.note(Repeat(entries, caller.f_lineno, RepeatKind.CALL, name))
        else:
            self.note(Repeat(entries, code.co_firstlineno, RepeatKind.CALLBACK, name))
        return self.local

    def local(self, frame: types.FrameType, event: str, arg: Any) -> Any:
        if event == "line":
            lines = self.lines.setdefault(frame, {})
            count = lines[frame.f_lineno] = lines.get(frame.f_lineno, 0) + 1
            self.note(Repeat(count, frame.f_lineno))
        elif event == "return":
            self.depth[frame.f_code] -= 1
            if not frame.f_code.co_flags & SUSPENDING:  # a generator's frame goes on
                self.lines.pop(frame, None)
                self.entries.pop(frame, None)
        return self.local

    def note(self, repeat: Repeat) -> None:
        if repeat.count > self.most.count:
            self.most = repeat

    def __enter__(self) -> RepeatCounter:
        """Count the submission's repeated work inside the ``with`` block (this thread only).
        A context manager of its own, not ``contextlib``'s: every function it runs is the
        sandbox's own, so sealed (graders/sandbox/sealed.py)."""
        self.previous = gettrace()
        settrace(self)
        return self

    def __exit__(self, *exc_info: object) -> None:
        settrace(self.previous)
        self.lines.clear()  # the frames they hold, and so the call's locals
        self.entries.clear()


def elements(values: Sequence[Any]) -> int:
    """The elements of the arrays among ``values`` and the containers holding them."""
    pending = list(values)
    total = 0
    while pending:
        value = pending.pop()
        if isinstance(value, np.ndarray):
            total += value.size
        elif isinstance(value, list | tuple):
            pending.extend(value)
        elif isinstance(value, dict):
            pending.extend(value.values())
    return total


def growth(calls: Sequence[Measured]) -> Growth | None:
    """The first pair of ``calls`` over which the submission's work grew with the input."""
    for small in calls:
        for large in calls:
            if (
                large.repeat.count >= 2
                and small.elements < large.elements
                and small.repeat.count < large.repeat.count
            ):
                return Growth(large, small)
    smallest = min(calls, key=lambda call: call.elements, default=None)
    for call in calls:
        if smallest is not None and call.repeat.count >= ALWAYS_A_LOOP:
            return Growth(call, smallest)
    return None
