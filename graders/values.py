"""The values a sandbox sends back, as the sandbox's side and the checks both know them: a value
that could not cross the channel (``Foreign``), a generator's state (``GeneratorState``), and
work of the submission that grew with its input (``Growth``, of ``graders/sandbox/repeats.py``);
and one kind of value the trusted side sends in: an author's function as an input
(``InputFunction``, of ``graders/callables.py``).

The sandbox makes and encodes them (``graders/sandbox/wire.py``, ``repeats.py``); the trusted
side decodes them, checking every field (``Growth.from_dict``), and the checks judge them
(``graders/checks``), which run nothing in the sandbox. Neither side imports the other for them:
this module imports only the standard library, and the zygote carries it into every sandbox.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

MAX_NAME_CHARS = 40
"""A repeated function's name as it leaves the sandbox: cut to this length."""
MAX_NUMBER = 1 << 62
"""Every line number, count and element count from a sandbox is below it (``Growth.from_dict``)."""


@dataclass(frozen=True)
class Foreign:
    """A value that could not cross the channel, described by its type."""

    type_name: str
    detail: str = ""


FUNCTION_MODULES = ("np", "numpy", "math")
"""The modules an input function may name: numpy as ``np`` or ``numpy``, and ``math``."""
FUNCTION_BUILTINS = frozenset(
    [
        "abs",
        "all",
        "any",
        "bool",
        "complex",
        "divmod",
        "enumerate",
        "float",
        "int",
        "isinstance",
        "len",
        "list",
        "max",
        "min",
        "pow",
        "range",
        "reversed",
        "round",
        "sorted",
        "sum",
        "tuple",
        "zip",
        "ArithmeticError",
        "ValueError",
    ]
)
"""The builtins an input function may name: pure ones, that reach nothing outside their
arguments (no ``open``, ``__import__``, ``getattr``, ``eval``)."""
MAX_FUNCTION_SOURCE_CHARS = 20_000


@dataclass(frozen=True)
class InputFunction:
    """An author's function given to the learner's code as an input, as data: its name and its
    source, from which each side re-creates it (``graders.sandbox.wire.live_function``).

    Invariant (``graders.callables.input_function`` makes every one): ``source`` is one plain
    top-level ``def name(...)``, undecorated, whose free names are only numpy (``np``,
    ``numpy``), ``math`` and pure builtins; so re-creating it needs nothing of the author's
    module, and nothing else of ``cases.py`` travels with it. Messages name it, never print its
    source (``repr``)."""

    name: str
    source: str

    def __repr__(self) -> str:
        return f"<function {self.name}>"


GeneratorState = tuple[int, int, int, int]
"""A ``PCG64`` generator's state as the channel carries it: state, increment, has_uint32,
uinteger."""


class RepeatKind(Enum):
    """What of the submission's work repeated."""

    LINE = "line"
    """A line ran again in the same frame."""
    CALL = "call"
    """A function was called again by the same line of the submission."""
    CALLBACK = "callback"
    """A function was called back again by the same instruction of C or library code."""
    RECURSION = "recursion"
    """A function was entered while it was running."""


@dataclass(frozen=True)
class Repeat:
    """The most repeated piece of the submission's work in one call."""

    count: int
    line: int
    kind: RepeatKind = RepeatKind.LINE
    name: str = ""
    """The function that repeated (not for ``LINE``)."""


@dataclass(frozen=True)
class Measured:
    """One public call: the elements of its array inputs and its most repeated work."""

    elements: int
    repeat: Repeat


@dataclass(frozen=True)
class Growth:
    """Work of the submission that grew with the input: on the larger input of two public
    calls, the piece that repeated most, and how often on each."""

    large: Measured
    small: Measured

    def to_dict(self) -> dict[str, Any]:
        repeat = self.large.repeat
        return {
            "line": repeat.line,
            "kind": repeat.kind.value,
            "name": repeat.name,
            "count": repeat.count,
            "elements": self.large.elements,
            "fewer": self.small.repeat.count,
            "fewer_elements": self.small.elements,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Growth:
        """Read what a sandbox sent: hostile, so every field is checked and bounded."""
        numbers = [
            int(data[key]) for key in ("line", "count", "elements", "fewer", "fewer_elements")
        ]
        if not all(0 <= number < MAX_NUMBER for number in numbers):
            raise ValueError("a count out of range")
        line, count, large_elements, fewer, fewer_elements = numbers
        name = str(data["name"])[:MAX_NAME_CHARS]
        repeat = Repeat(count, line, RepeatKind(data["kind"]), name)
        return cls(Measured(large_elements, repeat), Measured(fewer_elements, Repeat(fewer, line)))

    @property
    def message(self) -> str:
        """Where it repeated, in the learner's words (the inputs are public ones)."""
        repeat, line = self.large.repeat, self.large.repeat.line
        what = {
            RepeatKind.LINE: f"line {line}: this line ran {repeat.count} times",
            RepeatKind.CALL: f"line {line}: {repeat.name} was called {repeat.count} times",
            RepeatKind.CALLBACK: (
                f"line {line}: {repeat.name} was called back {repeat.count} times"
            ),
            RepeatKind.RECURSION: f"line {line}: {repeat.name} recursed {repeat.count} deep",
        }[repeat.kind]
        return (
            f"{what} in one call on {self.large.elements} input elements, "
            f"{self.small.repeat.count} on {self.small.elements}"
        )
