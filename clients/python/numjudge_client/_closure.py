"""The module a notebook's function needs: it, what it uses, and nothing else.

A notebook function lives in ``__main__``, which has no file. IPython keeps every cell it ran
(``In``, magics already turned into Python), so the client reads which top-level statement last
bound each name, then starts from the exercise's entry and follows the global names each
definition reads (``symtable``'s view of the statement: a function's locals are not globals).
For each name the kernel's value decides first, the statement's text after:

- a function: the ``def`` that made the function object the kernel holds (``defined_at``
  finds it from the function's code), not a later one in a cell that raised before it, nor the
  one a ``for`` target replaced; a function of a local module, its ``def`` in the file;
- a name a ``from M import *`` bound: ``from M import name``;
- ``def`` and ``class`` otherwise: their text, as the learner wrote it;
- ``import``: only the names used, one import a name (``from ipywidgets import interact`` in a
  cell of its own is not sent unless something sent reads ``interact``);
- data: its text when it is a literal that still holds the kernel's value, else the kernel's
  value written out (``LIMIT = np.log(np.finfo(float).max)`` is sent as
  ``LIMIT = 709.782712893384``; a small numeric array as ``np.array([...], dtype=...)``: one
  changed in place, drawn from a generator, loaded from a file, bound by a ``for`` or ``with``),
  else (a big array, an object) the statement itself, recomputed in the sandbox from what it
  reads (the guard, ``_guard``, checks the result).

Calls, prints and the ``Client`` are never sent: nothing a function reads is one of them. The
code of each cell is kept with its cell (``# In [3]``), so the server's line numbers map back.
"""

from __future__ import annotations

import ast
import builtins
import math
import re
import symtable
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import FunctionType
from typing import Any

from numjudge_client._errors import SourceNotFound
from numjudge_client._sent import Origin, SentCode

DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
ASSIGNMENTS = (ast.Assign, ast.AnnAssign)
LITERAL_TYPES = (bool, int, float, complex, str, bytes, type(None))
CONTAINERS = (tuple, list, dict, set, frozenset)
# Statements that bind a name but are not sent as such: their name goes as the kernel's value.
OPAQUE = (ast.For, ast.AsyncFor, ast.With, ast.AsyncWith, ast.AugAssign)
# An array is sent as its values up to this many elements (about 25 kB of text); a bigger one
# as the statement that made it, which the guard then checks.
MAX_ARRAY_ELEMENTS = 1000
NUMERIC_KINDS = frozenset("biufc")
_MISSING = object()


@dataclass(frozen=True)
class Cell:
    """One cell the kernel ran: its label (``In [3]``), its Python, and which line of the cell
    the first line of ``source`` is (2 below a ``%%numjudge`` line)."""

    label: str
    source: str
    first_line: int = 1


@dataclass(frozen=True)
class Binding:
    """The statement that last bound a name, where it was, and the globals it reads."""

    node: ast.stmt
    cell: Cell
    order: tuple[int, int]
    reads: frozenset[str]

    @property
    def is_import(self) -> bool:
        return isinstance(self.node, (ast.Import, ast.ImportFrom))

    @property
    def is_definition(self) -> bool:
        return isinstance(self.node, DEFINITIONS)

    @property
    def is_opaque(self) -> bool:
        return isinstance(self.node, OPAQUE)

    def text(self) -> str:
        if isinstance(self.node, DEFINITIONS):
            lines = self.cell.source.splitlines()
            return "\n".join(lines[self.first_line_in_source - 1 : self.node.end_lineno])
        return ast.unparse(self.node)

    @property
    def first_line_in_source(self) -> int:
        decorators: list[ast.expr] = getattr(self.node, "decorator_list", [])
        return min([d.lineno for d in decorators] + [self.node.lineno])

    @property
    def line_in_cell(self) -> int:
        return self.cell.first_line + self.first_line_in_source - 1


@dataclass(frozen=True)
class Block:
    text: str
    binding: Binding


DefinitionFinder = Callable[[FunctionType], Binding | None]
"""The ``def`` statement that made a function object (from its code's file and first line)."""


def build(
    cells: Sequence[Cell],
    namespace: Mapping[str, Any],
    roots: Iterable[str],
    *,
    exclude: Iterable[str] = (),
    defined_at: DefinitionFinder | None = None,
) -> SentCode:
    """The module of ``roots`` and everything they read, as the kernel has it now.
    ``exclude`` names packages never sent (this client: the sandbox cannot import it);
    ``defined_at`` finds the cell that defined a function object (IPython knows)."""
    bound = bindings(cells, frozenset(exclude))
    stars = star_modules(cells, frozenset(exclude))
    numpy_name = _numpy_name(bound, namespace)
    blocks: dict[tuple[int, int, int, str], Block] = {}
    seen: set[str] = set()
    pending = [root for root in roots if root in bound or root in namespace]
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        seen.add(name)
        found = _by_value(name, namespace, bound, stars, defined_at)
        if found is None:
            binding = bound.get(name)
            if binding is None:
                _require_unbound(name, namespace)
                continue
            found = _block(name, binding, namespace, numpy_name)
        block, reads, late = found
        blocks.setdefault((*block.binding.order, late, block.text), block)
        pending += sorted(reads - seen)
    return _assemble(sorted(blocks.items()))


def bindings(cells: Sequence[Cell], exclude: frozenset[str]) -> dict[str, Binding]:
    """Each name with the statement that last bound it at the top level of a cell."""
    bound: dict[str, Binding] = {}
    for index, cell in enumerate(cells):
        try:
            tree = ast.parse(cell.source)
        except SyntaxError:
            continue  # a cell that failed to parse defined nothing
        for position, node in enumerate(tree.body):
            for name, statement in _bound_by(node, exclude):
                reads = _globals_read(statement) - {name}
                bound[name] = Binding(statement, cell, (index, position), frozenset(reads))
    return bound


def _bound_by(node: ast.stmt, exclude: frozenset[str]) -> list[tuple[str, ast.stmt]]:
    """The names ``node`` binds, each with the statement to send for it (an import: of it
    alone)."""
    if isinstance(node, ast.Import):
        return [
            (alias.asname or alias.name.split(".")[0], _located(ast.Import(names=[alias]), node))
            for alias in node.names
            if alias.name.split(".")[0] not in exclude
        ]
    if isinstance(node, ast.ImportFrom):
        if (node.module or "").split(".")[0] in exclude or node.level:
            return []
        return [
            (alias.asname or alias.name, _located(ast.ImportFrom(node.module, [alias], 0), node))
            for alias in node.names
            if alias.name != "*"
        ]
    if isinstance(node, DEFINITIONS):
        return [(node.name, node)]
    if isinstance(node, OPAQUE):
        targets = (
            [node.target]
            if isinstance(node, (ast.For, ast.AsyncFor, ast.AugAssign))
            else [item.optional_vars for item in node.items if item.optional_vars]
        )
        return [(n.id, node) for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
    if isinstance(node, ASSIGNMENTS) and node.value is not None:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        names = [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
        if all(isinstance(t, (ast.Name, ast.Tuple, ast.List)) for t in targets):
            return [(name, node) for name in names]
    return []


def star_modules(cells: Sequence[Cell], exclude: frozenset[str]) -> list[tuple[str, Binding]]:
    """Each ``from M import *`` the cells ran, in order, with where it was."""
    stars: list[tuple[str, Binding]] = []
    for index, cell in enumerate(cells):
        try:
            tree = ast.parse(cell.source)
        except SyntaxError:
            continue
        for position, node in enumerate(tree.body):
            if (
                isinstance(node, ast.ImportFrom)
                and not node.level
                and node.module
                and node.module.split(".")[0] not in exclude
                and any(alias.name == "*" for alias in node.names)
            ):
                stars.append((node.module, Binding(node, cell, (index, position), frozenset())))
    return stars


def definition(cell: Cell, index: int, first_line: int, name: str) -> Binding | None:
    """The top-level ``def name`` of ``cell`` that starts on ``first_line`` of its source."""
    try:
        tree = ast.parse(cell.source)
    except SyntaxError:
        return None
    for position, node in enumerate(tree.body):
        if isinstance(node, DEFINITIONS) and node.name == name:
            binding = Binding(node, cell, (index, position), frozenset(_globals_read(node)))
            if binding.first_line_in_source == first_line:
                return binding
    return None


def _located(statement: ast.stmt, at: ast.stmt) -> ast.stmt:
    return ast.copy_location(statement, at)


def _globals_read(node: ast.stmt) -> set[str]:
    """The global names ``node`` reads: at the module level (decorators, defaults, a
    constant's value) and inside its functions and classes (their locals left out)."""
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return set()
    table = symtable.symtable(ast.unparse(node), "<cell>", "exec")
    names: set[str] = set()
    tables = [(table, True)]
    while tables:
        scope, top = tables.pop()
        names.update(
            symbol.get_name()
            for symbol in scope.get_symbols()
            if symbol.is_referenced() and (top or symbol.is_global())
        )
        tables += [(child, False) for child in scope.get_children()]
    return names


def _require_unbound(name: str, namespace: Mapping[str, Any]) -> None:
    """A name no cell bound at its top level: a built-in, or something the client cannot send."""
    if name in namespace and not hasattr(builtins, name):
        raise SourceNotFound(
            "Cannot send {name}: no cell binds it at the top level (it was made inside a loop, "
            "an `if`, `exec`, `%run` or `from … import *`). Define or import it by name at the "
            "top level of a cell and run that cell, or pass the code as a string.",
            name=name,
        )


def _block(
    name: str, binding: Binding, namespace: Mapping[str, Any], numpy_name: str | None
) -> tuple[Block, set[str], int]:
    """What to send for ``name`` from the statement that last bound it, the names that needs
    in turn, and 1 when it must follow that statement (a value of one of its targets)."""
    node = binding.node
    if binding.is_opaque:
        text = value_text(namespace[name], numpy_name) if name in namespace else None
        if text is None:
            raise SourceNotFound(
                "Cannot send {name}: line {line} of {cell} binds it in a `for`, `with` or `+=`, "
                "and its value is not data the client can write out. Define {name} by name at "
                "the top level of a cell and run that cell.",
                name=name,
                line=binding.line_in_cell,
                cell=binding.cell.label,
            )
        return Block(f"{name} = {text}", binding), _numpy_needed(namespace[name], numpy_name), 1
    if not isinstance(node, ASSIGNMENTS) or name not in namespace:
        return Block(binding.text(), binding), set(binding.reads), 0
    value = namespace[name]
    written = _literal_value(node.value) if node.value is not None else None
    if written is not None and _same(written[0], value):
        return Block(binding.text(), binding), set(), 0
    text = value_text(value, numpy_name)
    if text is not None:
        expression = ast.unparse(node.value) if node.value is not None else ""
        alone = isinstance(node, ast.AnnAssign) or len(_bound_by(node, frozenset())) == 1
        comment = (
            f"  # the notebook's value of {expression}" if alone and len(expression) < 60 else ""
        )
        return Block(f"{name} = {text}{comment}", binding), _numpy_needed(value, numpy_name), 1
    return Block(binding.text(), binding), set(binding.reads), 0


def _by_value(
    name: str,
    namespace: Mapping[str, Any],
    bound: Mapping[str, Binding],
    stars: Sequence[tuple[str, Binding]],
    defined_at: DefinitionFinder | None,
) -> tuple[Block, set[str], int] | None:
    """What to send for ``name`` from the kernel's value where its last statement may not be
    what made it: a function is sent as the ``def`` that made the function object (not a later
    one that never ran, nor the one a ``for`` target replaced; one of a local module, which the
    sandbox cannot import, as its ``def`` in the file); a name a star import bound, as that
    import of it alone."""
    if name not in namespace:
        return None
    value = namespace[name]
    if isinstance(value, FunctionType) and defined_at:
        made = defined_at(value)
        if made is None:
            return None
        if value.__name__ == name:
            return Block(made.text(), made), set(made.reads), 0
        alias = Binding(
            ast.parse(f"{name} = {value.__name__}").body[0],
            made.cell,
            made.order,
            frozenset({value.__name__}),
        )
        return Block(f"{name} = {value.__name__}", alias), {value.__name__}, 1
    binding = bound.get(name)
    for module, star in reversed(stars):
        if (binding is None or binding.order < star.order) and getattr(
            sys.modules.get(module), name, _MISSING
        ) is value:
            node = _located(ast.ImportFrom(module, [ast.alias(name)], 0), star.node)
            return (
                Block(ast.unparse(node), Binding(node, star.cell, star.order, frozenset())),
                (set()),
                0,
            )
    return None


def _numpy_name(bound: Mapping[str, Binding], namespace: Mapping[str, Any]) -> str | None:
    """The name the notebook imported numpy as (``np``), to write arrays with."""
    numpy = sys.modules.get("numpy")
    names = [n for n, b in bound.items() if b.is_import and namespace.get(n) is numpy]
    return names[0] if numpy is not None and names else None


def _literal_value(node: ast.expr) -> tuple[Any] | None:
    try:
        return (ast.literal_eval(node),)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None  # not a literal: a call, a name


def _same(written: Any, value: Any) -> bool:
    return type(written) is type(value) and literal_of(value) is not None and written == value


def literal_of(value: Any) -> str | None:
    """Python text that evaluates to ``value``, for numbers, strings, numpy scalars and
    containers of them; ``None`` for anything else (an array, a function, NaN)."""
    if type(value).__module__ == "numpy" and getattr(value, "ndim", None) == 0:
        value = value.item()  # a numpy scalar: the same number as a Python one
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if not isinstance(value, LITERAL_TYPES + CONTAINERS):
        return None
    text = repr(value)
    try:
        parsed = ast.literal_eval(text)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    return text if type(parsed) is type(value) and parsed == value else None


def _numpy_needed(value: Any, numpy_name: str | None) -> set[str]:
    """The numpy import an array written out needs."""
    return {numpy_name} if numpy_name and literal_of(value) is None else set()


def value_text(value: Any, numpy_name: str | None) -> str | None:
    """Python text for ``value``: a literal (``literal_of``), a small numeric array as
    ``np.array([...], dtype='float64')`` (its exact values: ``repr`` of a float reads back as
    the same float), or a tuple, list or dict of them; ``None`` for anything else."""
    literal = literal_of(value)
    if literal is not None:
        return literal
    if isinstance(value, (tuple, list)):
        items = [value_text(item, numpy_name) for item in value]
        if None in items or type(value) not in (tuple, list):
            return None
        inner = ", ".join(str(item) for item in items)
        return (
            f"({inner}{',' if len(items) == 1 else ''})"
            if isinstance(value, tuple)
            else (f"[{inner}]")
        )
    if type(value) is dict:
        pairs = [(value_text(k, numpy_name), value_text(v, numpy_name)) for k, v in value.items()]
        if any(k is None or v is None for k, v in pairs):
            return None
        return "{" + ", ".join(f"{k}: {v}" for k, v in pairs) + "}"
    if not (numpy_name and is_small_data(value)):
        return None
    values = NON_FINITE.sub(lambda match: f"float('{match[0]}')", repr(value.tolist()))
    return f"{numpy_name}.array({values}, dtype={str(value.dtype)!r})"


NON_FINITE = re.compile(r"\b(nan|inf)\b")


def is_small_data(value: Any) -> bool:
    """A numpy array of numbers or booleans small enough to send as its values."""
    numpy = sys.modules.get("numpy")
    return (
        numpy is not None
        and type(value) is numpy.ndarray
        and value.dtype.kind in NUMERIC_KINDS
        and value.dtype.isnative
        and value.size <= MAX_ARRAY_ELEMENTS
    )


def _assemble(blocks: list[tuple[tuple[int, int, int, str], Block]]) -> SentCode:
    """Imports first, then each cell's blocks under its label, with the origin of each line."""
    lines: list[str] = []
    origins: list[Origin] = []

    def add(text: str, binding: Binding) -> None:
        first = len(lines) + 1
        lines.extend(text.splitlines())
        origins.append(Origin(first, len(lines), binding.cell.label, binding.line_in_cell))

    for _, block in blocks:
        if block.binding.is_import:
            add(block.text, block.binding)
    label, definition = None, False
    for _, block in blocks:
        if block.binding.is_import:
            continue
        # PEP 8's spacing: two blank lines around a function or class, none between constants
        spaced = definition or block.binding.is_definition or block.binding.cell.label != label
        if lines and spaced:
            lines += ["", ""]
        if block.binding.cell.label != label:
            label = block.binding.cell.label
            lines.append(f"# {label}")
        add(block.text, block.binding)
        definition = block.binding.is_definition
    return SentCode("\n".join(lines) + "\n", tuple(origins))
