"""The argument family: one argument used for another of its kind, two exchanged throughout,
an argument used where its complement belongs (``p`` for ``1 - p``: a probability or a rate
read as its complement), or the first two arguments of a call exchanged."""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator

from graders.mutation.nodes import Scope, function_name, is_one
from graders.mutation.operators import Operator, Variant

# Calls whose two first arguments play different roles, so that exchanging them is a mistake
# a learner makes (besides the reference's own helper functions).
ARGUMENT_ORDERED = frozenset({"dot", "outer", "matmul", "power", "subtract", "divide"})


def argument_variants(node: ast.AST, scope: Scope) -> Iterator[Variant]:
    """Arguments confused: one for another of its kind, two exchanged, a call's order."""
    if (
        isinstance(node, ast.Name)
        and isinstance(node.ctx, ast.Load)
        and node.id in scope.parameters
    ):
        for substitute in sorted(same_kind(node.id, scope.parameters)):
            yield Variant(
                Operator.REPLACE_PARAMETER,
                substitute,
                f"with {substitute} used in one place where {node.id} belongs",
                functools.partial(replaced_name, substitute=substitute),
            )
    if (
        isinstance(node, ast.BinOp)
        and isinstance(node.op, ast.Sub)
        and is_one(node.left)
        and isinstance(node.right, ast.Name)
        and node.right.id in scope.parameters
    ):
        name = node.right.id
        yield Variant(
            Operator.ARGUMENT_FOR_COMPLEMENT,
            "",
            f"with {name} used in one place where 1 - {name} belongs (a probability or a "
            "rate taken for its complement)",
            complement_left_out,
        )
    if isinstance(node, ast.FunctionDef):
        for first, second in exchangeable(node, scope.parameters):
            yield Variant(
                Operator.EXCHANGE_PARAMETERS,
                f"{first}:{second}",
                f"with the "
                f"parameters {first} and {second} exchanged (each used where the "
                "other belongs)",
                functools.partial(exchange_names, first=first, second=second),
            )
    if (
        isinstance(node, ast.Call)
        and len(node.args) >= 2
        and ast.dump(node.args[0]) != ast.dump(node.args[1])
        and (
            function_name(node) in ARGUMENT_ORDERED
            or (isinstance(node.func, ast.Name) and node.func.id in scope.functions)
        )
    ):
        yield Variant(
            Operator.SWAP_ARGUMENTS,
            "",
            "with the first two arguments of a call exchanged",
            swapped_arguments,
        )


def same_kind(name: str, parameters: frozenset[str]) -> set[str]:
    """The other parameters of ``name``'s kind, which a learner can confuse with it: the same
    name before the first underscore (``W_z`` and ``W_r``, ``b_u`` and ``b_a``)."""
    if "_" not in name:
        return set()
    kind = name.split("_")[0]
    return {p for p in parameters if p != name and "_" in p and p.split("_")[0] == kind}


def exchangeable(
    function: ast.FunctionDef, parameters: frozenset[str]
) -> Iterator[tuple[str, str]]:
    """Pairs of the function's arguments of one kind (:func:`same_kind`)."""
    names = [a.arg for a in function.args.args if a.arg in parameters]
    for i, first in enumerate(names):
        for second in names[i + 1 :]:
            if second in same_kind(first, parameters):
                yield first, second


def replaced_name(node: ast.AST, substitute: str) -> ast.AST:
    """The name read made ``substitute``."""
    return ast.Name(substitute, ast.Load())


def exchange_names(function: ast.AST, first: str, second: str) -> ast.AST:
    """``function`` with every use of ``first`` in its body reading ``second``, and back."""
    other = {first: second, second: first}
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and node.id in other:
            node.id = other[node.id]
    return function


def complement_left_out(node: ast.AST) -> ast.AST | None:
    """``1 - p`` made ``p``."""
    return node.right if isinstance(node, ast.BinOp) else None


def swapped_arguments(node: ast.AST) -> ast.AST | None:
    """``f(a, b, ...)`` made ``f(b, a, ...)``."""
    if not isinstance(node, ast.Call):
        return None
    node.args[0], node.args[1] = node.args[1], node.args[0]
    return node
