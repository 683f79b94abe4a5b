"""Mutants of a reference solution: candidate mistakes derived from its syntax tree.

Each operator of the catalogue (:mod:`graders.mutation.catalogue`) changes one place of
``solution.py`` in a way a learner might (two concatenated vectors in the opposite order, tanh
where a sigmoid belongs, a loop one step short, ...) and says what the change means. Their
outputs are computed once per exercise version (:mod:`graders.mutation.runs`); a learner whose
outputs equal a mutant's is told its meaning (:mod:`graders.checks.diagnosis`).
"""

from __future__ import annotations

import ast
import copy
from dataclasses import dataclass

from graders import syntax
from graders.mutation.catalogue import HELPERS, rewrites
from graders.mutation.nodes import Scope
from graders.mutation.operators import Operator, Rewrite

PREFIX = "Your result equals the correct one "


@dataclass(frozen=True)
class Mutant:
    """One change of the reference: where, what it means, and the changed source."""

    key: str
    """``operator:line:column[:variant][#n]``, unique within one reference."""
    operator: Operator
    line: int
    column: int
    meaning: str
    """The sentence a learner whose outputs equal this mutant's reads."""
    source: str


def stored(node: ast.AST) -> bool:
    """A subscript being assigned to (``states[t] = h``): shifting it is no input mistake."""
    return isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store)


def make_mutants(source: str, entry: str) -> list[Mutant]:
    """Every mutant of ``source`` that still compiles, in source order."""
    tree = syntax.parse(source)
    scope = Scope.of(tree, entry)
    # The module's functions and its classes' methods: a scenario exercise's learner writes
    # several functions, or a class.
    functions = [
        node
        for top in tree.body
        for node in (top.body if isinstance(top, ast.ClassDef) else [top])
        if isinstance(node, ast.FunctionDef)
    ]
    mutants: list[Mutant] = []
    seen = {ast.unparse(tree)}
    for function in functions:
        for node in ast.walk(function):
            if stored(node) or not hasattr(node, "lineno"):
                continue
            for variant in rewrites(node, scope):
                changed = apply(tree, node, variant.rewrite)
                if changed is None or changed in seen:
                    continue
                seen.add(changed)
                line, column = getattr(node, "lineno", 0), getattr(node, "col_offset", 0)
                key = ":".join(
                    str(p) for p in (variant.operator.value, line, column, variant.name) if p != ""
                )
                # Nested expressions can start at the same place (a + b + c holds a + b).
                key += (
                    f"#{sum(1 for m in mutants if m.key.split('#')[0] == key)}"
                    if any(m.key.split("#")[0] == key for m in mutants)
                    else ""
                )
                mutants.append(
                    Mutant(
                        key, variant.operator, line, column, PREFIX + variant.meaning + ".", changed
                    )
                )
    return mutants


def apply(tree: ast.Module, target: ast.AST, rewrite: Rewrite) -> str | None:
    """The source of ``tree`` with ``target`` rewritten, or None if that is not Python."""
    original = list(ast.walk(tree))
    position = next(i for i, n in enumerate(original) if n is target)
    changed = copy.deepcopy(tree)
    nodes = list(ast.walk(changed))
    node = nodes[position]
    replacement = rewrite(node)
    if replacement is None:
        return None
    if replacement is not node:
        for parent in nodes:
            for field, value in ast.iter_fields(parent):
                if value is node:
                    setattr(parent, field, replacement)
                elif isinstance(value, list) and any(item is node for item in value):
                    value[:] = [replacement if item is node else item for item in value]
    text = ast.unparse(ast.fix_missing_locations(changed))
    for name, helper in HELPERS:
        if name in text:
            text += helper
    try:
        compile(text, "<mutant>", "exec")
    except SyntaxError:
        return None
    return text
