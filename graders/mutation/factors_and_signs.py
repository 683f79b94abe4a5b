"""The factor and sign family: a product's factor left out, a difference or a sign turned
around; in a reference that computes gradients also a term's sign, a division by a count
left out and a factor 2 too many (the slips of a chain rule written by hand)."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from graders.mutation.nodes import Scope, dropped_operands, is_one
from graders.mutation.operators import Operator, Variant


def factor_and_sign_variants(node: ast.AST, scope: Scope) -> Iterator[Variant]:
    """A product's factor left out, a difference or a sign turned around."""
    if scope.backward:
        yield from gradient_factor_variants(node)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        yield from dropped_operands(
            node, Operator.DROP_FACTOR, "the factor", "one factor of a product", scope
        )
    # 1 - g is a gate's complement, which the sum family exchanges as a whole.
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub) and not is_one(node.left):
        yield Variant(
            Operator.SWAP_DIFFERENCE,
            "",
            "with the two sides of a difference exchanged (b - a where a - b belongs)",
            swapped_difference,
        )
        yield Variant(
            Operator.FLIP_SIGN,
            "",
            "with the sign of one term flipped (an addition where a subtraction belongs)",
            difference_as_sum,
        )
    if (
        isinstance(node, ast.UnaryOp)
        and isinstance(node.op, ast.USub)
        and not isinstance(node.operand, ast.Constant)
    ):
        yield Variant(Operator.FLIP_SIGN, "", "with the sign of one term flipped", without_minus)


def swapped_difference(node: ast.AST) -> ast.AST | None:
    """``a - b`` made ``b - a``."""
    return ast.BinOp(node.right, ast.Sub(), node.left) if isinstance(node, ast.BinOp) else None


def difference_as_sum(node: ast.AST) -> ast.AST | None:
    """``a - b`` made ``a + b``."""
    return ast.BinOp(node.left, ast.Add(), node.right) if isinstance(node, ast.BinOp) else None


def without_minus(node: ast.AST) -> ast.AST | None:
    """``-a`` made ``a``."""
    return node.operand if isinstance(node, ast.UnaryOp) else None


def gradient_factor_variants(node: ast.AST) -> Iterator[Variant]:
    """An added term's sign flipped, a division by a count left out, a difference doubled."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        yield Variant(
            Operator.FLIP_SIGN,
            "",
            "with the sign of one term flipped (a subtraction where an addition belongs)",
            sum_as_difference,
        )
    if (
        isinstance(node, ast.BinOp)
        and isinstance(node.op, ast.Div)
        and not isinstance(node.right, ast.Constant)
    ):
        yield Variant(
            Operator.DROP_DIVISOR,
            "",
            "without a division by a count (a factor 1/N off: a sum where a mean belongs)",
            dividend,
        )
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub) and not is_one(node.left):
        yield Variant(
            Operator.DOUBLE_DIFFERENCE,
            "",
            "with a difference doubled (a factor 2 off, as when a square's derivative keeps "
            "the 2 that the loss's factor 1/2 cancels)",
            doubled,
        )


def sum_as_difference(node: ast.AST) -> ast.AST | None:
    """``a + b`` made ``a - b``."""
    return ast.BinOp(node.left, ast.Sub(), node.right) if isinstance(node, ast.BinOp) else None


def dividend(node: ast.AST) -> ast.AST | None:
    """``a / n`` made ``a``."""
    return node.left if isinstance(node, ast.BinOp) else None


def doubled(node: ast.AST) -> ast.AST | None:
    """``a - b`` made ``2.0 * (a - b)``."""
    return ast.BinOp(ast.Constant(2.0), ast.Mult(), node) if isinstance(node, ast.BinOp) else None
