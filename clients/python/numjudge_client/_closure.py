"""The module a notebook's function needs: it, what it uses, and nothing else.

A notebook function lives in ``__main__``, which has no file. IPython keeps every cell it ran
(``In``, magics already turned into Python), so the client reads which top-level statement last
bound each name, then starts from the exercise's entry and follows the global names each
definition reads (``symtable``'s view of the statement: a function's locals are not globals):

- ``def`` and ``class``: their text, as the learner wrote it;
- ``import``: only the names used, one import a name (``from ipywidgets import interact`` in a
  cell of its own is not sent unless something sent reads ``interact``);
- a constant: its text when it is a literal that still holds the kernel's value, else the
  kernel's value as a literal (``LIMIT = np.log(np.finfo(float).max)`` is sent as
  ``LIMIT = 709.782712893384``), else (an array, an object) the statement itself, recomputed
  in the sandbox from what it reads.

Calls, prints and the ``Client`` are never sent: nothing a function reads is one of them. The
code of each cell is kept with its cell (``# In [3]``), so the server's line numbers map back.
"""

from __future__ import annotations

import ast
import builtins
import math
import symtable
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from numjudge_client._errors import SourceNotFound
from numjudge_client._sent import Origin, SentCode

DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
ASSIGNMENTS = (ast.Assign, ast.AnnAssign)
LITERAL_TYPES = (bool, int, float, complex, str, bytes, type(None))
CONTAINERS = (tuple, list, dict, set, frozenset)


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


def build(
    cells: Sequence[Cell],
    namespace: Mapping[str, Any],
    roots: Iterable[str],
    *,
    exclude: Iterable[str] = (),
) -> SentCode:
    """The module of ``roots`` and everything they read, as the kernel has it now.
    ``exclude`` names packages never sent (this client: the sandbox cannot import it)."""
    bound = bindings(cells, frozenset(exclude))
    blocks: dict[tuple[int, int, str], Block] = {}
    seen: set[str] = set()
    pending = [root for root in roots if root in bound or root in namespace]
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        seen.add(name)
        binding = bound.get(name)
        if binding is None:
            _require_unbound(name, namespace)
            continue
        block, reads = _block(name, binding, namespace)
        blocks.setdefault((*binding.order, block.text), block)
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
    if isinstance(node, ASSIGNMENTS) and node.value is not None:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        names = [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
        if all(isinstance(t, (ast.Name, ast.Tuple, ast.List)) for t in targets):
            return [(name, node) for name in names]
    return []


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
            f"Cannot send {name}: no cell binds it at the top level (it was made inside a "
            "loop, an `if`, `exec`, `%run` or `from … import *`). Define or import it by name "
            "at the top level of a cell and run that cell, or pass the code as a string."
        )


def _block(name: str, binding: Binding, namespace: Mapping[str, Any]) -> tuple[Block, set[str]]:
    """What to send for ``name`` and the names that needs in turn."""
    node = binding.node
    if not isinstance(node, ASSIGNMENTS) or name not in namespace:
        return Block(binding.text(), binding), set(binding.reads)
    value = namespace[name]
    written = _literal_value(node.value) if node.value is not None else None
    if written is not None and _same(written[0], value):
        return Block(binding.text(), binding), set()
    literal = literal_of(value)
    if literal is not None:
        expression = ast.unparse(node.value) if node.value is not None else ""
        alone = isinstance(node, ast.AnnAssign) or len(_bound_by(node, frozenset())) == 1
        comment = (
            f"  # the notebook's value of {expression}" if alone and len(expression) < 60 else ""
        )
        return Block(f"{name} = {literal}{comment}", binding), set()
    return Block(binding.text(), binding), set(binding.reads)


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


def _assemble(blocks: list[tuple[tuple[int, int, str], Block]]) -> SentCode:
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
