"""The spellings of a Python loop that are no ``for`` or ``while``, found on a syntax tree:
a callable applied per element by ``map``, ``filter``, ``functools.reduce``,
``itertools.starmap``, ``numpy.vectorize``, ``numpy.frompyfunc`` or
``numpy.apply_along_axis``, and recursion among the file's own functions.

Each of the callers repeats one call per element whatever it is given: ``map(np.sqrt, rows)``
makes one numpy call per row as surely as ``map(lambda r: ..., rows)`` runs a lambda per
row, so a builtin or numpy callable is a loop too (docs/authoring.md, "Rules"). A name is
one of these callers when the file binds it by an import (``from functools import reduce``,
``np.vectorize``) or, for ``map`` and ``filter``, leaves the builtin unshadowed.

Recursion is a cycle of calls among the functions the file defines, by bare name (``f(...)``)
or through ``self.`` / ``cls.`` to a method of the same class; a call by another route (a
function passed as an argument, a name rebound at run time) is left to the sandbox's count
(graders/sandbox/repeats.py).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

PER_ELEMENT_CALLERS = frozenset(
    {
        "functools.reduce",
        "itertools.starmap",
        "numpy.vectorize",
        "numpy.frompyfunc",
        "numpy.apply_along_axis",
    }
)
BUILTIN_CALLERS = frozenset({"map", "filter"})
Function = ast.FunctionDef | ast.AsyncFunctionDef
Calls = dict[Function, list[tuple[ast.Call, Function]]]
NESTED_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
ChainNames = Callable[[ast.AST, dict[str, set[str]]], Iterator[tuple[str, str]]]
"""What an attribute chain rooted at an imported name stands for (``rules.chain_names``)."""


@dataclass(frozen=True)
class Spelling:
    """One loop the code spells without a loop statement."""

    node: ast.AST
    written: str


def hidden_loops(
    nodes: Sequence[ast.AST], bindings: dict[str, set[str]], chains: ChainNames
) -> Iterator[Spelling]:
    """Per-element callers and recursive calls among ``nodes`` (a whole file's)."""
    defined = {
        node.name
        for node in nodes
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
    }
    shadowed = defined | set(bindings) | assigned_names(nodes)
    # A caller is found where it is named, called or not (``m = map; m(f, rows)``).
    calls = {id(node.func): node for node in nodes if isinstance(node, ast.Call)}
    for node in nodes:
        if not (isinstance(node, ast.Name | ast.Attribute) and isinstance(node.ctx, ast.Load)):
            continue
        call = calls.get(id(node))
        if isinstance(node, ast.Name) and node.id in BUILTIN_CALLERS - shadowed:
            yield Spelling(node, f"{node.id}{applied(call)}")
            continue
        for name, written in chains(node, bindings):
            if name in PER_ELEMENT_CALLERS:
                yield Spelling(node, f"{written}{applied(call)}")
                break
    yield from recursion(nodes)


def applied(call: ast.Call | None) -> str:
    """`` with a lambda`` or `` of square`` for the callable a per-element caller applies."""
    if call is None or not call.args:
        return ""
    first = call.args[0]
    if isinstance(first, ast.Lambda):
        return " with a lambda"
    if isinstance(first, ast.Name | ast.Attribute):
        return f" of {ast.unparse(first)[:40]}"
    return ""


def assigned_names(nodes: Sequence[ast.AST]) -> set[str]:
    return {
        node.id
        for node in nodes
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del)
    }


def recursion(nodes: Sequence[ast.AST]) -> Iterator[Spelling]:
    """Each call that closes a cycle of calls among the file's functions."""
    functions = [node for node in nodes if isinstance(node, Function)]
    by_key = {
        (enclosing_class(function, nodes) or "", function.name): function for function in functions
    }
    calls: Calls = {}
    for function in functions:
        for node in own_nodes(function):
            if isinstance(node, ast.Call):
                target = by_key.get(call_key(node, function, nodes))
                if target is not None:
                    calls.setdefault(function, []).append((node, target))
    for function in functions:
        for call, target in calls.get(function, ()):
            if reaches(target, function, calls):
                how = "itself" if target is function else f"{target.name}, which calls back"
                yield Spelling(call, f"recursion: {function.name} calls {how}")


def reaches(start: Function, goal: Function, calls: Calls) -> bool:
    seen = {start}
    pending = [start]
    while pending:  # iterative: a long chain of calls cannot exhaust the stack
        function = pending.pop()
        if function is goal:
            return True
        for _, target in calls.get(function, ()):
            if target not in seen:
                seen.add(target)
                pending.append(target)
    return False


def call_key(call: ast.Call, caller: ast.AST, nodes: Sequence[ast.AST]) -> tuple[str, str]:
    callee = call.func
    if isinstance(callee, ast.Name):
        return ("", callee.id)
    if (
        isinstance(callee, ast.Attribute)
        and isinstance(callee.value, ast.Name)
        and callee.value.id in ("self", "cls")
    ):
        return (enclosing_class(caller, nodes) or "", callee.attr)
    return ("", "")


def enclosing_class(function: ast.AST, nodes: Sequence[ast.AST]) -> str | None:
    for node in nodes:
        if isinstance(node, ast.ClassDef) and function in node.body:
            return node.name
    return None


def own_nodes(function: ast.AST) -> Iterator[ast.AST]:
    """The nodes of ``function``'s own body: a nested function's calls are its own (a closure
    that calls the function around it closes a cycle only if that function calls it)."""
    pending = list(ast.iter_child_nodes(function))
    while pending:
        node = pending.pop()
        yield node
        if not isinstance(node, NESTED_SCOPES):
            pending.extend(ast.iter_child_nodes(node))
