"""Structural fragments of a Python answer: its syntax tree with the choices that leave the
computation unchanged taken out, cut into hashed subtrees that two answers can share.

The normalised tree, as JPlag and pycode_similar compare programs:

- comments, docstrings, bare strings and type annotations are gone;
- every name the learner chose (variables, parameters, functions) is one placeholder; what
  names a module (``np``, whatever its alias, is ``numpy``), a builtin the learner did not
  rebind (``range``), an attribute (``.mean``) or a keyword argument (``axis=``) stays;
- constants are abstracted to their kind (a number, a string; ``True``, ``False`` and
  ``None`` stay);
- a helper function that returns once, at its end, is inlined where it is called (its
  arguments put in for its parameters; a longer helper's statements where a statement
  assigns, returns or makes its call) and its definition dropped; any other function is
  compared as a unit, its statements fragments like any other;
- the statements of a block are put in a canonical order: a statement moves past another
  only if neither reads or writes what the other writes (a ``return``, ``raise``, ``break``
  or ``continue`` moves past nothing), ties broken by the statements' own hashes, so
  answers whose independent statements come in another order give the same block.

Every statement of at least :data:`MIN_NODES` nodes (nested ones too: a loop, and each
statement of its body) is a fragment, and so are two consecutive statements of a block, each
hashed with BLAKE2 (the same in every process, unlike ``hash``) and counted (an answer may
have one twice). Statements, not every expression: an expression is as likely written alike
by two independent answers as by a copy, and counted per node it lets one long statement
outweigh the rest of an answer. Where each fragment first occurs in the code is kept, so a
page can show the statements two answers share.

Written here rather than taken from PyPI: pycode_similar (1.4, 2020), the package there that
compares Python syntax trees, diffs two programs' tree dumps function by function, with no
weight across a class, no order of independent statements, no helpers inlined and no
positions to show; the rest compare text or tokens (copydetect already does).

A learner writes the code: the tree is walked without recursion (a 10 000-character
expression nests thousands of levels), and what the parser or the inlining cannot take
(a syntax error, a nesting past Python's limits) has no structure (``None``), which the
report says. Pure: code in, fragments out.
"""

from __future__ import annotations

import ast
import builtins
import copy
import hashlib
import heapq
import itertools
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass

MIN_NODES = 5
"""The fewest nodes a fragment has: ``return v`` (2 nodes) or ``v = w - m`` (4) is in every
numpy answer; ``v = np.sqrt(w + e)`` (7) says something of how an answer is written."""
MAX_INLINED_NODES = 20_000
"""Nodes that inlining may add to an answer: helpers calling helpers would otherwise double
the tree at each level; past it, calls stay calls."""
MAX_REORDERED = 300
"""Blocks of more statements keep their order: ordering costs the square of a block's
length, and no honest answer has a block that long."""

BUILTIN_NAMES = frozenset(dir(builtins))
IGNORED_FIELDS = frozenset(
    {"ctx", "annotation", "returns", "type_comment", "type_params", "kind", "simple"}
)
"""Fields that do not change what the code computes (``kind`` is a string's ``u`` prefix,
``simple`` whether an annotated target had parentheses)."""
LEARNER_NAMED = {
    "Name": "id",
    "arg": "arg",
    "FunctionDef": "name",
    "AsyncFunctionDef": "name",
    "ClassDef": "name",
    "alias": "asname",
    "ExceptHandler": "name",
    "Global": "names",
    "Nonlocal": "names",
}
"""The field of each node that holds a name the learner chose."""
OPERATORS = (ast.operator, ast.boolop, ast.cmpop, ast.unaryop, ast.expr_context)
JUMPS = (ast.Return, ast.Raise, ast.Break, ast.Continue)
BLOCK_FIELDS = frozenset({"body", "orelse", "finalbody"})
PLACEHOLDER = "·"


@dataclass(frozen=True)
class Fragment:
    """A normalised statement (or two consecutive ones): its size in nodes, where it first
    occurs, ``(start, end)`` character offsets into the code (``None`` for two consecutive
    statements), and how many times the answer has it."""

    size: int
    span: tuple[int, int] | None
    count: int = 1  # how many times the answer has it


@dataclass(frozen=True)
class Structure:
    """An answer's fragments, by hash."""

    fragments: Mapping[int, Fragment]


def structure(code: str) -> Structure | None:
    """The fragments of ``code``; ``None`` if it does not parse or nests past Python's
    limits."""
    try:
        tree = ast.parse(code)
        _drop_bare_strings(tree)
        _inline_helpers(tree)
        return _Hasher(tree, _CodeOffsets(code)).structure()
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _drop_bare_strings(tree: ast.Module) -> None:
    """Docstrings and strings written as comments; an emptied block gets a ``pass``."""
    for node in ast.walk(tree):
        for field in BLOCK_FIELDS:
            block = getattr(node, field, None)
            if not isinstance(block, list) or not block:
                continue
            kept = [s for s in block if not _is_bare_string(s)]
            block[:] = kept or [ast.Pass()]


def _is_bare_string(statement: object) -> bool:
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


def _helpers(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    """The module's functions of plain positional parameters that return once, at their
    end, and do not call themselves."""
    helpers = {}
    for statement in tree.body:
        if not isinstance(statement, ast.FunctionDef) or statement.decorator_list:
            continue
        args = statement.args
        plain = not (args.vararg or args.kwarg or args.kwonlyargs or args.defaults)
        last = statement.body[-1]
        returns = [n for n in ast.walk(statement) if isinstance(n, ast.Return)]
        if not plain or not isinstance(last, ast.Return) or last.value is None:
            continue
        if returns != [last] or any(
            isinstance(n, ast.Name) and n.id == statement.name for n in ast.walk(statement)
        ):
            continue
        helpers[statement.name] = statement
    return helpers


def _inline_helpers(tree: ast.Module) -> None:
    """Each call of a helper (:func:`_helpers`) replaced by what it computes: a one-line
    helper's expression wherever it is called; a longer helper's statements where a
    statement assigns, returns or makes its call, then that statement on its returned
    value. Arguments are put in for the parameters, and a helper whose every use was
    inlined is dropped."""
    helpers = _helpers(tree)
    if not helpers:
        return
    inlined = dict.fromkeys(helpers, 0)
    cost = {name: sum(1 for _ in ast.walk(h)) for name, h in helpers.items()}
    budget = MAX_INLINED_NODES
    # Breadth-first order reversed: a call's arguments are inlined before the call itself.
    for parent in reversed(list(ast.walk(tree))):
        for field, value in ast.iter_fields(parent):
            if budget <= 0:
                break
            if isinstance(value, list):
                replaced: list[object] = []
                for item in value:
                    statements = None
                    if field in BLOCK_FIELDS:
                        statements = _inlined_statement(item, helpers)
                    expression = None if statements else _inlined_call(item, helpers)
                    if statements is None and expression is None:
                        replaced.append(item)
                        continue
                    inlined[_called(item)] += 1
                    budget -= cost[_called(item)]
                    replaced.extend(statements or [expression])
                value[:] = replaced
            elif (expression := _inlined_call(value, helpers)) is not None:
                inlined[_called(value)] += 1
                budget -= cost[_called(value)]
                setattr(parent, field, expression)
    uses: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in helpers:
            uses[node.id] = uses.get(node.id, 0) + 1
    tree.body = [
        s
        for s in tree.body
        if not (
            isinstance(s, ast.FunctionDef)
            and s.name in helpers
            and inlined[s.name]
            and not uses.get(s.name)
        )
    ] or [ast.Pass()]


def _called(node: object) -> str:
    """The helper a call, or a statement of one call, calls."""
    call = node.value if isinstance(node, ast.Assign | ast.Return | ast.Expr) else node
    assert isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
    return call.func.id


def _arguments(call: ast.Call, helper: ast.FunctionDef) -> dict[str, ast.expr] | None:
    """The call's arguments by parameter, if they match the helper's parameters."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(
        k.arg is None for k in call.keywords
    ):
        return None
    params = [a.arg for a in helper.args.posonlyargs + helper.args.args]
    given = dict(zip(params, call.args, strict=False))
    given.update((k.arg, k.value) for k in call.keywords if k.arg is not None)
    if len(call.args) > len(params) or set(given) != set(params):
        return None
    return given


def _helper_call(
    node: object, helpers: Mapping[str, ast.FunctionDef]
) -> tuple[ast.FunctionDef, dict[str, ast.expr]] | None:
    if not (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in helpers
    ):
        return None
    helper = helpers[node.func.id]
    given = _arguments(node, helper)
    return None if given is None else (helper, given)


def _inlined_call(node: object, helpers: Mapping[str, ast.FunctionDef]) -> ast.expr | None:
    """A one-line helper's expression with the call's arguments in it, if ``node`` calls
    one."""
    found = _helper_call(node, helpers)
    if found is None or len(found[0].body) != 1:
        return None
    helper, given = found
    returned = helper.body[0]
    assert isinstance(returned, ast.Return) and returned.value is not None
    expression = _substituted(returned.value, given)
    assert isinstance(expression, ast.expr)
    return expression


def _inlined_statement(
    node: object, helpers: Mapping[str, ast.FunctionDef]
) -> list[ast.stmt] | None:
    """A longer helper's statements and ``node`` on what it returns, if ``node`` assigns,
    returns or makes a call of one."""
    if not isinstance(node, ast.Assign | ast.Return | ast.Expr):
        return None
    found = _helper_call(node.value, helpers)
    if found is None or len(found[0].body) < 2:
        return None
    helper, given = found
    *statements, returned = (_substituted(s, given) for s in helper.body)
    assert isinstance(returned, ast.Return) and returned.value is not None
    renamed = _renaming(node, returned.value)
    if renamed is not None:
        # ``v = f(x); return v`` assigned to ``t``: the helper's statements assign ``t``.
        return [_substituted(s, renamed) for s in statements]  # type: ignore[misc]
    result = copy.copy(node)
    result.value = returned.value
    return [*statements, result]  # type: ignore[list-item]


def _renaming(statement: ast.stmt, returned: ast.expr) -> dict[str, ast.expr] | None:
    """If ``statement`` assigns names what a helper returns as names (one, or a tuple of
    them), the caller's names by the helper's."""
    if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1):
        return None
    target = statement.targets[0]
    targets = target.elts if isinstance(target, ast.Tuple) else [target]
    values = returned.elts if isinstance(returned, ast.Tuple) else [returned]
    if len(targets) != len(values) or not all(isinstance(n, ast.Name) for n in [*targets, *values]):
        return None
    return {v.id: t for v, t in zip(values, targets, strict=True)}  # type: ignore[attr-defined]


def _substituted(node: ast.AST, given: Mapping[str, ast.expr]) -> ast.AST:
    """A copy of ``node`` with the given expressions put in for the names."""
    wrapper = ast.Module([copy.deepcopy(node)], [])  # type: ignore[list-item]
    for parent in list(ast.walk(wrapper)):
        for field, value in ast.iter_fields(parent):
            if isinstance(value, list):
                value[:] = [_put_in(item, given) for item in value]
            else:
                setattr(parent, field, _put_in(value, given))
    return wrapper.body[0]


def _put_in(value: object, given: Mapping[str, ast.expr]) -> object:
    if isinstance(value, ast.Name) and value.id in given:
        put = copy.deepcopy(given[value.id])
        if isinstance(put, ast.Name):  # a name given for a name keeps its use: load or store
            put.ctx = value.ctx
        elif not isinstance(value.ctx, ast.Load):
            return value
        return put
    return value


class _CodeOffsets:
    """Character offsets of the parser's positions (lines from 1, columns in UTF-8 bytes)."""

    def __init__(self, code: str) -> None:
        self.lines = code.splitlines(keepends=True)
        self.starts = [0]
        for line in self.lines:
            self.starts.append(self.starts[-1] + len(line))

    def offset(self, line: int, byte_column: int) -> int:
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        if not text.isascii():
            byte_column = len(text.encode()[:byte_column].decode(errors="ignore"))
        return self.starts[min(line - 1, len(self.lines))] + byte_column

    def span(self, node: ast.AST) -> tuple[int, int] | None:
        line, column = getattr(node, "lineno", None), getattr(node, "col_offset", None)
        end_line, end_column = (
            getattr(node, "end_lineno", None),
            getattr(node, "end_col_offset", None),
        )
        if line is None or column is None or end_line is None or end_column is None:
            return None
        return self.offset(line, column), self.offset(end_line, end_column)


def _digest(*parts: object) -> int:
    text = "\x1f".join(map(str, parts)).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big")


def _child_fields(node: ast.AST) -> Iterator[tuple[str, object]]:
    for field, value in ast.iter_fields(node):
        if field not in IGNORED_FIELDS:
            yield field, value


class _Hasher:
    """Hashes of every subtree of the normalised tree, children before parents."""

    def __init__(self, tree: ast.Module, offsets: _CodeOffsets) -> None:
        self.tree = tree
        self.offsets = offsets
        self.modules: dict[str, str] = {}
        bound: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                for alias in node.names:
                    origin = alias.name
                    if isinstance(node, ast.ImportFrom):
                        origin = f"{node.module or ''}.{alias.name}"
                    local = alias.asname or alias.name.split(".")[0]
                    self.modules[local] = origin if alias.asname else origin.split(".")[0]
            elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                bound.add(node.id)
            elif isinstance(node, ast.arg):
                bound.add(node.arg)
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                bound.add(node.name)
        self.builtins = BUILTIN_NAMES - bound - set(self.modules)
        self.hashes: dict[int, int] = {}
        self.sizes: dict[int, int] = {}
        self.fragments: dict[int, Fragment] = {}

    def structure(self) -> Structure:
        for node in _post_order(self.tree):
            self._hash(node)
        return Structure(self.fragments)

    def _label(self, node: ast.AST, field: str, value: object) -> str:
        kind = type(node).__name__
        if kind == "Name" and field == "id":
            assert isinstance(value, str)
            if value in self.modules:
                return f"module:{self.modules[value]}"
            return f"builtin:{value}" if value in self.builtins else PLACEHOLDER
        if LEARNER_NAMED.get(kind) == field:
            return PLACEHOLDER if value is not None else ""
        if kind == "Constant" and field == "value":
            if isinstance(value, bool) or value is None or value is Ellipsis:
                return repr(value)
            return type(value).__name__ if not isinstance(value, int | float | complex) else "num"
        return repr(value)

    def _hash(self, node: ast.AST) -> None:
        parts: list[object] = [type(node).__name__]
        size = 1
        for field, value in _child_fields(node):
            if isinstance(value, list):
                children = [v for v in value if isinstance(v, ast.AST)]
                if field in BLOCK_FIELDS and children:
                    children = self._canonical(children)
                    self._consecutive(children)
                parts.append(field)
                for child in children:
                    parts.append(self._child(child))
                    size += self.sizes.get(id(child), 0)
                scalars = [self._label(node, field, v) for v in value if not isinstance(v, ast.AST)]
                parts.extend(scalars)
            elif isinstance(value, ast.AST):
                parts.append(field)
                parts.append(self._child(value))
                size += self.sizes.get(id(value), 0)
            else:
                parts.append(f"{field}={self._label(node, field, value)}")
        digest = _digest(*parts)
        self.hashes[id(node)] = digest
        self.sizes[id(node)] = size
        if isinstance(node, ast.stmt) and size >= MIN_NODES:
            self._add(digest, size, self.offsets.span(node))

    def _add(self, digest: int, size: int, span: tuple[int, int] | None) -> None:
        known = self.fragments.get(digest)
        if known is None:
            self.fragments[digest] = Fragment(size, span)
        else:
            self.fragments[digest] = Fragment(size, known.span, known.count + 1)

    def _child(self, child: ast.AST) -> object:
        if isinstance(child, OPERATORS):
            return type(child).__name__
        return self.hashes[id(child)]

    def _consecutive(self, block: list[ast.AST]) -> None:
        for first, second in itertools.pairwise(block):
            digest = _digest("next", self.hashes[id(first)], self.hashes[id(second)])
            size = self.sizes[id(first)] + self.sizes[id(second)]
            if size >= MIN_NODES:
                self._add(digest, size, None)

    def _canonical(self, block: list[ast.AST]) -> list[ast.AST]:
        """``block`` in the order each statement's own hash gives, as far as the statements
        it reads, writes or jumps past allow."""
        if len(block) > MAX_REORDERED or len(block) < 2:
            return block
        effects = [_effects(s, self.modules) for s in block]
        after: list[set[int]] = [set() for _ in block]  # statements that must come after i
        waiting = [0] * len(block)
        for j in range(len(block)):
            reads_j, writes_j, jumps_j = effects[j]
            for i in range(j):
                reads_i, writes_i, jumps_i = effects[i]
                if jumps_i or jumps_j or writes_i & (reads_j | writes_j) or reads_i & writes_j:
                    after[i].add(j)
                    waiting[j] += 1
        ready = [(self.hashes[id(s)], i) for i, s in enumerate(block) if not waiting[i]]
        heapq.heapify(ready)
        ordered = []
        while ready:
            _, i = heapq.heappop(ready)
            ordered.append(block[i])
            for j in after[i]:
                waiting[j] -= 1
                if not waiting[j]:
                    heapq.heappush(ready, (self.hashes[id(block[j])], j))
        return ordered


def _post_order(tree: ast.AST) -> list[ast.AST]:
    """Every node after its children, without recursion."""
    ordered: list[ast.AST] = []
    stack: list[tuple[ast.AST, bool]] = [(tree, False)]
    while stack:
        node, expanded = stack.pop()
        if expanded:
            ordered.append(node)
            continue
        stack.append((node, True))
        for _, value in _child_fields(node):
            children = value if isinstance(value, list) else [value]
            stack.extend((c, False) for c in children if isinstance(c, ast.AST))
    return ordered


def _effects(statement: ast.AST, modules: Collection[str]) -> tuple[set[str], set[str], bool]:
    """The names ``statement`` reads and writes, and whether it jumps (returns, raises,
    breaks or continues). A call made as a statement may change what it is passed (and the
    object of a method, unless it is one of the ``modules``): it writes them too; writing
    into ``a[i]`` or ``a.b`` reads and writes ``a``."""
    reads: set[str] = set()
    writes: set[str] = set()
    jumps = False
    for node in ast.walk(statement):
        if isinstance(node, JUMPS) and not isinstance(statement, ast.FunctionDef):
            jumps = True
        elif isinstance(node, ast.Name):
            (reads if isinstance(node.ctx, ast.Load) else writes).add(node.id)
        elif isinstance(node, ast.Subscript | ast.Attribute) and not isinstance(node.ctx, ast.Load):
            base = node.value
            while isinstance(base, ast.Subscript | ast.Attribute):
                base = base.value
            if isinstance(base, ast.Name):
                reads.add(base.id)
                writes.add(base.id)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            writes.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            writes.update((a.asname or a.name).split(".")[0] for a in node.names)
    if isinstance(statement, ast.AugAssign):
        reads |= writes
    if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
        writes |= _passed(statement.value) - set(modules)
    return reads, writes, jumps


def _passed(call: ast.Call) -> set[str]:
    """The names a call may change: those passed to it, and the object of a method."""
    passed = [*call.args, *(k.value for k in call.keywords)]
    if isinstance(call.func, ast.Attribute):
        passed.append(call.func.value)
    return {n.id for n in passed if isinstance(n, ast.Name)}
