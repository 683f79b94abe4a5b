"""A learner's own inputs, written as Python literals or numpy expressions, read without
running anything.

The text is parsed with ``ast`` and only a small set of nodes is evaluated, by this module,
on the trusted side: numbers, ``True``/``False``/``None``, short strings, lists, tuples and
dicts of them, a unary minus or plus, and calls of a few numpy constructors (``ALLOWED_CALLS``)
whose arguments are themselves such values, with a ``dtype`` from ``DTYPES``. Every other node
(a name, an attribute, an operator, a subscript, a lambda, ...) is refused with its position.

Each input's text is charged, before it is parsed, what its syntax tree may take
(``PARSE_BYTES_PER_CHAR``), and each call, before numpy builds anything, the bytes numpy will
allocate for it (its result and its temporaries, graders/custom/costs.py); the charges of all
inputs together stay under the caller's cap. Once built, an array larger than its charge is
refused all the same (a rule that undercounts is a bug, not a learner's doing), and a
``MemoryError`` is a refusal that says so, not a crash. An array holds numbers only: a string
or an object in one would cost the trusted side far more bytes per element than the cap counts
(``np.full`` of a 1 000-character string: 4 000 bytes each), and the sandbox is sent numeric
arrays only (graders/sandbox/wire.py). Integers fit in 64 bits, as an array's do: a longer one
cannot cross the channel (its decimal text is over Python's 4 300 digits).
"""

from __future__ import annotations

import ast
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from graders.custom import costs
from graders.custom.costs import NUMBERS_ONLY, NUMERIC_KINDS
from graders.errors import CustomInputRefused

logger = logging.getLogger(__name__)

NUMPY_NAMES = ("np", "numpy")
DTYPES = frozenset(
    {"float64", "float32", "float16", "int64", "int32", "int16", "int8", "uint8", "bool"}
    | {"complex128", "complex64"}
)
MAX_TEXT_CHARS = 200_000
MAX_DEPTH = 32
"""How deeply lists may nest: numpy has at most 64 axes, and deeper text is a trick."""
MAX_STRING_CHARS = 1_000
PARSE_BYTES_PER_CHAR = 640
"""What ``ast.parse`` allocates at most per character of an input, charged before it runs:
measured at 480-550 for lists, dicts and calls of one-character items (a 200 000-character
list took 93 MiB), and the values read from the tree take less than the tree."""
INT_RANGE = range(-(2**63), 2**64)
"""The integers an array can hold (int64 and uint64)."""


@dataclass(frozen=True)
class Call:
    """A numpy constructor a learner may call: its positional parameters (by name), and the
    bytes numpy allocates to build it from its bound arguments (graders/custom/costs.py)."""

    params: tuple[str, ...]
    cost: Callable[[Mapping[str, Any]], int]
    build: Callable[..., Any]


ALLOWED_CALLS: Mapping[str, Call] = {
    "array": Call(("object",), costs.array_cost, np.array),
    "zeros": Call(("shape",), costs.zeros_cost, np.zeros),
    "ones": Call(("shape",), costs.zeros_cost, np.ones),
    "full": Call(("shape", "fill_value"), costs.full_cost, np.full),
    "eye": Call(("N", "M"), costs.eye_cost, np.eye),
    "arange": Call(("start", "stop", "step"), costs.arange_cost, np.arange),
    "linspace": Call(("start", "stop", "num"), costs.linspace_cost, np.linspace),
}
NODE_WORDS: Mapping[type[ast.AST], str] = {
    ast.Name: "a name",
    ast.Attribute: "an attribute",
    ast.BinOp: "an operator (+, -, *, /, **)",
    ast.BoolOp: "and/or",
    ast.Compare: "a comparison",
    ast.Subscript: "indexing",
    ast.Lambda: "a lambda",
    ast.ListComp: "a comprehension",
    ast.GeneratorExp: "a generator",
    ast.JoinedStr: "an f-string",
    ast.Set: "a set",
}
KEYWORDS = frozenset({"dtype", "endpoint", "k", "M", "num", "stop", "step", "fill_value"})


def parse_inputs(texts: Mapping[str, str], names: Sequence[str], max_bytes: int) -> dict[str, Any]:
    """The values of ``texts`` (one expression per parameter of the entry function, by name),
    in the order of ``names``; reading them all (their syntax trees and numpy's arrays)
    allocates at most ``max_bytes``.

    Raises ``CustomInputRefused`` naming the parameter and the position of what it refuses.
    """
    missing = [name for name in names if name not in texts]
    unknown = sorted(set(texts) - set(names))
    if unknown:
        raise CustomInputRefused(
            f"unknown input(s) {', '.join(unknown)}: the function takes {', '.join(names)}"
        )
    if missing:
        raise CustomInputRefused(f"missing input(s): {', '.join(missing)}")
    values: dict[str, Any] = {}
    used = 0
    for name in names:
        reader = _Reader(name, used, max_bytes)
        values[name] = reader.read(texts[name])
        used = reader.charged
    return values


class _Reader:
    """Evaluates one input's expression, charging the bytes numpy allocates for it to what the
    inputs before it were charged."""

    def __init__(self, name: str, charged: int, cap: int) -> None:
        self.name = name
        self.charged = charged
        self.cap = cap

    def read(self, text: str) -> Any:
        if len(text) > MAX_TEXT_CHARS:
            raise CustomInputRefused(
                f"input {self.name}: {len(text)} characters, at most {MAX_TEXT_CHARS}"
            )
        if not text.strip():
            raise CustomInputRefused(f"input {self.name}: empty; write a value")
        self.charge(len(text.strip()) * PARSE_BYTES_PER_CHAR, None)
        try:
            tree = ast.parse(text.strip(), mode="eval")
        except SyntaxError as exc:
            where = f"line {exc.lineno}, column {exc.offset}" if exc.lineno else "somewhere"
            raise CustomInputRefused(
                f"input {self.name}, {where}: not a Python expression ({exc.msg})"
            ) from None
        except (RecursionError, MemoryError):
            raise CustomInputRefused(f"input {self.name}: nested too deeply") from None
        return self.value(tree.body, 0)

    def refuse(self, node: ast.AST | None, what: str) -> CustomInputRefused:
        """A refusal naming the input and, for a ``node``, where in it."""
        if node is None:
            return CustomInputRefused(f"input {self.name}: {what}")
        line = getattr(node, "lineno", 1)
        column = getattr(node, "col_offset", 0) + 1
        return CustomInputRefused(f"input {self.name}, line {line}, column {column}: {what}")

    def charge(self, cost: int, node: ast.AST | None) -> None:
        """Count ``cost`` bytes, for the text (``node`` None) or a call, against the cap."""
        self.charged += cost
        if self.charged > self.cap:
            raise self.refuse(
                node,
                f"too large: reading and building the inputs so far would allocate "
                f"{self.charged:,} bytes, and all of them may allocate at most {self.cap:,} "
                f"(as many as {self.cap // 8:,} float64 numbers, from this exercise's memory "
                "limit)",
            )

    def value(self, node: ast.expr, depth: int) -> Any:
        if depth > MAX_DEPTH:
            raise self.refuse(node, f"nested more than {MAX_DEPTH} levels deep")
        match node:
            case ast.Constant(value=int() as number) if not isinstance(number, bool):
                if number not in INT_RANGE:
                    raise self.refuse(node, "an integer must fit in 64 bits")
                return number
            case ast.Constant(value=bool() | float() | complex() | None as constant):
                return constant
            case ast.Constant(value=str(text)) if len(text) <= MAX_STRING_CHARS:
                return text
            case ast.UnaryOp(op=ast.USub() | ast.UAdd(), operand=operand):
                inner = self.value(operand, depth + 1)
                if isinstance(inner, bool) or not isinstance(inner, int | float | complex):
                    raise self.refuse(node, "a sign goes before a number only")
                if isinstance(node.op, ast.UAdd):
                    return inner
                if isinstance(inner, int) and -inner not in INT_RANGE:
                    raise self.refuse(node, "an integer must fit in 64 bits")
                return -inner
            case ast.List(elts=items) | ast.Tuple(elts=items):
                values = [self.value(item, depth + 1) for item in items]
                return values if isinstance(node, ast.List) else tuple(values)
            case ast.Dict(keys=keys, values=items):
                if any(key is None for key in keys):
                    raise self.refuse(node, "** in a dict is not allowed")
                return {
                    self.key(key, depth): self.value(item, depth + 1)
                    for key, item in zip(keys, items, strict=True)
                    if key is not None
                }
            case ast.Call():
                return self.call(node, depth)
        what = NODE_WORDS.get(type(node), type(node).__name__)
        raise self.refuse(
            node,
            f"{what} is not allowed: write numbers, lists, tuples, dicts, a "
            f"minus sign or np.{', np.'.join(ALLOWED_CALLS)} with such arguments",
        )

    def key(self, node: ast.expr, depth: int) -> Any:
        key = self.value(node, depth + 1)
        refused = self.refuse(node, "a dict key is a number, a string or a tuple of them")
        if not isinstance(key, str | int | float | bool | tuple):
            raise refused
        try:
            hash(key)  # a tuple holding a list or an array is no key
        except TypeError:
            raise refused from None
        return key

    def call(self, node: ast.Call, depth: int) -> Any:
        function = node.func
        if not (
            isinstance(function, ast.Attribute)
            and isinstance(function.value, ast.Name)
            and function.value.id in NUMPY_NAMES
            and function.attr in ALLOWED_CALLS
        ):
            raise self.refuse(
                node, f"only np.{', np.'.join(ALLOWED_CALLS)} may be called, with literal arguments"
            )
        spec = ALLOWED_CALLS[function.attr]
        if any(isinstance(arg, ast.Starred) for arg in node.args) or len(node.args) > len(
            spec.params
        ):
            raise self.refuse(node, f"np.{function.attr}: too many or unpacked arguments")
        positional = [self.value(arg, depth + 1) for arg in node.args]
        named: dict[str, Any] = {}
        for keyword in node.keywords:
            if keyword.arg is None or keyword.arg not in KEYWORDS | set(spec.params):
                what = f"keyword {keyword.arg}" if keyword.arg else "**"
                raise self.refuse(keyword, f"np.{function.attr}: {what} is not allowed")
            if keyword.arg == "dtype":
                named["dtype"] = self.dtype(keyword.value)
            else:
                named[keyword.arg] = self.value(keyword.value, depth + 1)
        bound = dict(zip(spec.params, positional, strict=False)) | named
        try:
            cost = spec.cost(bound)
        except CustomInputRefused as exc:
            raise self.refuse(node, str(exc)) from None
        except (KeyError, TypeError, ValueError, OverflowError):
            raise self.refuse(node, f"np.{function.attr}: arguments it does not take") from None
        self.charge(cost, node)  # before numpy allocates anything (nested calls count twice)
        try:
            built = spec.build(*positional, **named)
        except (TypeError, ValueError, OverflowError) as exc:
            raise self.refuse(node, f"np.{function.attr} refused its arguments: {exc}") from None
        except MemoryError:
            raise self.refuse(
                node,
                f"np.{function.attr}: the server could not find the {cost:,} bytes of memory "
                "it takes now; try smaller inputs, or try again later",
            ) from None
        if built.dtype.kind not in NUMERIC_KINDS:  # np.array([2**63, -1]) is of objects
            raise self.refuse(node, f"np.{function.attr}: {NUMBERS_ONLY}")
        if built.nbytes > cost:  # a rule of costs.py that undercounts: refuse, and say so
            logger.error(
                "custom input built more than charged",
                extra={"call": function.attr, "charged": cost, "built": built.nbytes},
            )
            raise self.refuse(
                node,
                f"np.{function.attr}: built {built.nbytes:,} bytes where {cost:,} were counted; "
                "refused (please report it)",
            )
        return built

    def dtype(self, node: ast.expr) -> str:
        match node:
            case ast.Constant(value=str(name)) if name in DTYPES:
                return name
            case ast.Attribute(value=ast.Name(id=module), attr=name) if (
                module in NUMPY_NAMES and name in DTYPES | {"bool_"}
            ):
                return "bool" if name == "bool_" else name
            case ast.Name(id="float" | "int" | "bool" | "complex" as name):
                return {"float": "float64", "int": "int64", "complex": "complex128"}.get(name, name)
        raise self.refuse(node, f"dtype is one of {', '.join(sorted(DTYPES))}")
