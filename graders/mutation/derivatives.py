"""The derivative family: an activation's derivative left out of a chain rule's product.

A backward pass multiplies the gradient arriving at an activation's output by the
activation's derivative, written from its output: ``s * (1 - s)`` for a sigmoid ``s``,
``1 - t**2`` (or ``1 - t * t``) for a tanh ``t``. The factor family drops one factor of a
product at a time, which splits the sigmoid's pair; here the derivative goes as a whole, as
when a learner stops at the activation's output.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator

from graders.mutation.nodes import Scope, is_one
from graders.mutation.operators import Operator, Variant

MEANINGS = {
    "sigmoid": "without the sigmoid's derivative s(1 - s) in the chain rule",
    "tanh": "without the tanh's derivative 1 - t² in the chain rule",
}


def derivative_variants(node: ast.AST, scope: Scope) -> Iterator[Variant]:
    """Each activation's derivative in a product left out, in a reference that computes
    gradients."""
    if not (scope.backward and is_product(node)):
        return
    factors = product_factors(node)
    for kind, dropped in derivatives(factors):
        if len(dropped) < len(factors):  # a product that is only the derivative keeps it
            yield Variant(
                Operator.DROP_DERIVATIVE,
                kind,
                MEANINGS[kind],
                functools.partial(without_factors, dropped=frozenset(dropped)),
            )


def is_product(node: ast.AST) -> bool:
    return isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult)


def product_factors(node: ast.AST) -> list[ast.expr]:
    """The factors of a product, however it is parenthesised (``a * (b * c)``: a, b, c)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        return [*product_factors(node.left), *product_factors(node.right)]
    return [node]  # type: ignore[list-item]


def derivatives(factors: list[ast.expr]) -> Iterator[tuple[str, list[int]]]:
    """Which factors (by position) make an activation's derivative, and of which kind."""
    dumps = [ast.dump(f) for f in factors]
    for position, factor in enumerate(factors):
        complemented = complement_of(factor)
        if complemented is None:
            continue
        if squared(complemented) is not None:
            yield "tanh", [position]
        elif ast.dump(complemented) in dumps:
            yield "sigmoid", [dumps.index(ast.dump(complemented)), position]


def complement_of(node: ast.expr) -> ast.expr | None:
    """``a`` when ``node`` is ``1 - a``."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub) and is_one(node.left):
        return node.right
    return None


def squared(node: ast.expr) -> ast.expr | None:
    """``t`` when ``node`` is ``t**2`` or ``t * t``."""
    if (
        isinstance(node, ast.BinOp)
        and isinstance(node.op, ast.Pow)
        and isinstance(node.right, ast.Constant)
        and node.right.value == 2
    ):
        return node.left
    if (
        isinstance(node, ast.BinOp)
        and isinstance(node.op, ast.Mult)
        and ast.dump(node.left) == ast.dump(node.right)
    ):
        return node.left
    return None


def without_factors(node: ast.AST, dropped: frozenset[int]) -> ast.AST | None:
    """The product ``node`` without the factors at the positions ``dropped``."""
    kept = [f for position, f in enumerate(product_factors(node)) if position not in dropped]
    if not kept:
        return None
    product = kept[0]
    for factor in kept[1:]:
        product = ast.BinOp(product, ast.Mult(), factor)
    return product
