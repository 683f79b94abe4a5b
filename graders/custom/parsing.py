"""A learner's own inputs, written as Python literals or numpy expressions, read without
running anything.

The text is parsed with ``ast`` and only a small set of nodes is evaluated, by this module,
on the trusted side: numbers, ``True``/``False``/``None``, short strings, lists, tuples and
dicts of them, a unary minus or plus, and calls of a few numpy constructors (``ALLOWED_CALLS``)
whose arguments are themselves such values, with a ``dtype`` from ``DTYPES``. Every other node
(a name, an attribute, an operator, a subscript, a lambda, ...) is refused with its position.
The size of every array is computed from the arguments before numpy builds it, and the
elements of all inputs together stay under the caller's cap. An array holds numbers only: a
string or an object in one would cost the trusted side far more bytes per element than the
cap counts (``np.full`` of a 1 000-character string: 4 000 bytes each), and the sandbox is
sent numeric arrays only (graders/sandbox/wire.py). Integers fit in 64 bits, as an array's do:
a longer one cannot cross the channel (its decimal text is over Python's 4 300 digits).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from graders.errors import CustomInputRefused

NUMPY_NAMES = ("np", "numpy")
DTYPES = frozenset(
    {"float64", "float32", "float16", "int64", "int32", "int16", "int8", "uint8", "bool"}
    | {"complex128", "complex64"}
)
MAX_TEXT_CHARS = 200_000
MAX_DEPTH = 32
"""How deeply lists may nest: numpy has at most 64 axes, and deeper text is a trick."""
MAX_STRING_CHARS = 1_000
INT_RANGE = range(-(2**63), 2**64)
"""The integers an array can hold (int64 and uint64)."""
NUMERIC_KINDS = frozenset("biufc")
NUMBERS_ONLY = (
    "an array of numbers of one shape was expected (ragged lists or mixed values make an "
    "array of objects)"
)


@dataclass(frozen=True)
class Call:
    """A numpy constructor a learner may call: its positional parameters (by name), and the
    number of elements it makes from its bound arguments."""

    params: tuple[str, ...]
    size: Callable[[Mapping[str, Any]], int]
    build: Callable[..., Any]


def _shape_size(shape: Any, where: str) -> int:
    dims = shape if isinstance(shape, tuple | list) else (shape,)
    if not all(isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in dims):
        raise CustomInputRefused(f"{where}: a shape is a non-negative integer or a tuple of them")
    size = 1
    for dim in dims:
        size *= dim
    return size


def _numbers(value: Any, where: str) -> int:
    """How many elements ``value`` (numbers, numeric arrays, lists and tuples of them) holds;
    ``CustomInputRefused`` for anything else, before numpy builds an array of it."""
    if isinstance(value, bool | int | float | complex):
        return 1
    if isinstance(value, np.ndarray) and value.dtype.kind in NUMERIC_KINDS:
        return int(value.size)
    if isinstance(value, list | tuple):
        return sum(_numbers(item, where) for item in value)
    raise CustomInputRefused(f"{where}: {NUMBERS_ONLY}")


def _full_size(args: Mapping[str, Any]) -> int:
    _numbers(args["fill_value"], "np.full")
    return _shape_size(args["shape"], "np.full")


def _arange_size(args: Mapping[str, Any]) -> int:
    start, stop, step = args.get("start", 0), args.get("stop"), args.get("step", 1)
    if stop is None:
        start, stop = 0, start
    if not all(isinstance(v, int | float) for v in (start, stop, step)) or step == 0:
        raise CustomInputRefused("np.arange takes numbers, with a step other than 0")
    return max(0, int(np.ceil((stop - start) / step)))


ALLOWED_CALLS: Mapping[str, Call] = {
    "array": Call(("object",), lambda a: _numbers(a["object"], "np.array"), np.array),
    "zeros": Call(("shape",), lambda a: _shape_size(a["shape"], "np.zeros"), np.zeros),
    "ones": Call(("shape",), lambda a: _shape_size(a["shape"], "np.ones"), np.ones),
    "full": Call(("shape", "fill_value"), _full_size, np.full),
    "eye": Call(
        ("N", "M"),
        lambda a: _shape_size((a["N"], a.get("M", a["N"])), "np.eye"),
        np.eye,
    ),
    "arange": Call(("start", "stop", "step"), _arange_size, np.arange),
    "linspace": Call(
        ("start", "stop", "num"),
        lambda a: _shape_size(a.get("num", 50), "np.linspace"),
        np.linspace,
    ),
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


def parse_inputs(
    texts: Mapping[str, str], names: Sequence[str], max_elements: int
) -> dict[str, Any]:
    """The values of ``texts`` (one expression per parameter of the entry function, by name),
    in the order of ``names``; at most ``max_elements`` array elements in all.

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
        reader = _Reader(name, max_elements - used, max_elements)
        values[name] = reader.read(texts[name])
        used += reader.elements
    return values


class _Reader:
    """Evaluates one input's expression, counting the elements it builds."""

    def __init__(self, name: str, budget: int, cap: int) -> None:
        self.name = name
        self.budget = budget
        self.cap = cap
        self.elements = 0

    def read(self, text: str) -> Any:
        if len(text) > MAX_TEXT_CHARS:
            raise CustomInputRefused(
                f"input {self.name}: {len(text)} characters, at most {MAX_TEXT_CHARS}"
            )
        if not text.strip():
            raise CustomInputRefused(f"input {self.name}: empty; write a value")
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

    def refuse(self, node: ast.AST, what: str) -> CustomInputRefused:
        line = getattr(node, "lineno", 1)
        column = getattr(node, "col_offset", 0) + 1
        return CustomInputRefused(f"input {self.name}, line {line}, column {column}: {what}")

    def charge(self, size: int, node: ast.AST) -> None:
        self.elements += size
        if self.elements > self.budget:
            raise self.refuse(
                node,
                f"too large: all inputs together may hold at most {self.cap} array elements "
                "(from this exercise's memory limit)",
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
            size = spec.size(bound)
        except CustomInputRefused as exc:
            raise self.refuse(node, str(exc)) from None
        except (KeyError, TypeError, ValueError, OverflowError):
            raise self.refuse(node, f"np.{function.attr}: arguments it does not take") from None
        self.charge(size, node)  # before numpy allocates anything (nested calls count twice)
        try:
            built = spec.build(*positional, **named)
        except (TypeError, ValueError, OverflowError) as exc:
            raise self.refuse(node, f"np.{function.attr} refused its arguments: {exc}") from None
        if built.dtype.kind not in NUMERIC_KINDS:  # np.array([2**63, -1]) is of objects
            raise self.refuse(node, f"np.{function.attr}: {NUMBERS_ONLY}")
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
