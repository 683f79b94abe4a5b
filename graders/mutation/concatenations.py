"""The concatenation family: the two parts of a concatenation exchanged."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from graders.mutation.nodes import CONCATENATIONS, Scope, function_name
from graders.mutation.operators import Operator, Variant


def concatenation_variants(node: ast.AST, scope: Scope) -> Iterator[Variant]:
    """Two parts of a concatenation exchanged."""
    if (
        isinstance(node, ast.Call)
        and function_name(node) in CONCATENATIONS
        and node.args
        and isinstance(node.args[0], ast.List | ast.Tuple)
        and len(node.args[0].elts) == 2
    ):
        yield Variant(
            Operator.SWAP_CONCAT,
            "",
            "with the two concatenated vectors in the opposite order",
            swapped_parts,
        )


def swapped_parts(node: ast.AST) -> ast.AST | None:
    """``concatenate([a, b], ...)`` made ``concatenate([b, a], ...)``."""
    if not (isinstance(node, ast.Call) and isinstance(node.args[0], ast.List | ast.Tuple)):
        return None
    node.args[0].elts.reverse()
    return node
