"""The result layout family: the entry function's result with two axes exchanged, or its two
returned values in the opposite order.

A permuted result passes through :data:`SWAPAXES_HELPER`, whose source
(:data:`SWAPAXES_SOURCE`) the mutant gets appended.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator

from graders.mutation.nodes import Scope
from graders.mutation.operators import Operator, Variant

# Exchanges two axes of every array of two or more axes in a result (each of a tuple's).
SWAPAXES_HELPER = "_numjudge_swapaxes"
SWAPAXES_SOURCE = (
    f"\n\ndef {SWAPAXES_HELPER}(value, first, second):\n"
    "    import numpy\n"
    "    if isinstance(value, tuple):\n"
    f"        return tuple({SWAPAXES_HELPER}(v, first, second) for v in value)\n"
    "    if isinstance(value, numpy.ndarray) and value.ndim >= 2:\n"
    "        return numpy.swapaxes(value, first, second)\n"
    "    return value\n"
)


def layout_variants(node: ast.AST, scope: Scope) -> Iterator[Variant]:
    """The result in another layout: its axes or a returned pair's order."""
    if isinstance(node, ast.FunctionDef) and is_entry(node, scope.parameters):
        axes_named = (
            "the batch, the time steps or the units"
            if scope.over_time
            else "the batch or the values of one example"
        )
        for axes in ((-1, -2), (0, 1)):
            yield Variant(
                Operator.PERMUTE_OUTPUT,
                f"{axes[0]},{axes[1]}",
                "with the axes of "
                "the result in another order: check which axis the statement puts "
                f"first ({axes_named})",
                functools.partial(permuted_returns, axes=axes),
            )
    if (
        isinstance(node, ast.Return)
        and isinstance(node.value, ast.Tuple)
        and len(node.value.elts) == 2
    ):
        yield Variant(
            Operator.SWAP_TUPLE, "", "with the returned values in the opposite order", swapped_pair
        )


def is_entry(function: ast.FunctionDef, parameters: frozenset[str]) -> bool:
    return bool(parameters) and {a.arg for a in function.args.args} == parameters


def permuted_returns(function: ast.AST, axes: tuple[int, int]) -> ast.AST:
    """``function`` returning its values with two axes exchanged (not its nested functions')."""
    pending = list(ast.iter_child_nodes(function))
    while pending:
        node = pending.pop()
        if isinstance(node, ast.FunctionDef | ast.Lambda):
            continue
        if isinstance(node, ast.Return) and node.value is not None:
            node.value = ast.Call(
                ast.Name(SWAPAXES_HELPER, ast.Load()),
                [node.value, *(ast.Constant(a) for a in axes)],
                [],
            )
        pending.extend(ast.iter_child_nodes(node))
    return function


def swapped_pair(node: ast.AST) -> ast.AST | None:
    """``return a, b`` made ``return b, a``."""
    if not (isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple)):
        return None
    node.value.elts.reverse()
    return node
