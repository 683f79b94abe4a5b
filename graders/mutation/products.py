"""The matrix product family: a matrix transposed, given the transposed shape without being
transposed, or applied from the other side, a gate moved through the product."""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator

from graders.mutation.nodes import CONCATENATIONS, Scope, function_name, is_sigmoid_call
from graders.mutation.operators import Operator, Variant


def product_variants(node: ast.AST, scope: Scope) -> Iterator[Variant]:
    """A matrix product: a matrix transposed or applied from the other side, a gate moved
    through the product."""
    if isinstance(node, ast.Attribute) and node.attr == "T":
        yield Variant(
            Operator.TRANSPOSE,
            "",
            "with a matrix used without the transpose it needs (rows and columns exchanged)",
            without_transpose,
        )
        # The numpy slip of a learner who wants the shape (M, D) of a (D, M) matrix: reshape
        # keeps the numbers in their order, where a transpose exchanges rows and columns.
        yield Variant(
            Operator.RESHAPE_FOR_TRANSPOSE,
            "",
            "with a matrix given the transposed shape without being transposed (its numbers "
            "kept in their order, so rows and columns are not exchanged)",
            reshaped_for_transpose,
        )
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
        if not is_transposed(node.left) and (
            isinstance(node.right, ast.Name) or is_transposed(node.right)
        ):
            # v @ M made M.T @ v (the matrix written first, as for a column vector): the
            # same for one vector, and the slip a learner makes, where v.T @ M is not.
            yield Variant(
                Operator.TRANSPOSE,
                "swap",
                "with a matrix applied from the other "
                "side of the vector (the matrix written first, as for a column "
                "vector): the same for a single vector, not for a batch of rows",
                swap_product,
            )
        if isinstance(node.right, ast.Name):
            yield Variant(
                Operator.TRANSPOSE,
                "right",
                "with a matrix transposed (rows and columns exchanged)",
                transposed_right,
            )
        for side in ("left", "right"):
            for element, factor in gated_factors(getattr(node, side), scope.helpers, scope.gates):
                where = "" if element is None else f"{element}."
                yield Variant(
                    Operator.GATE_PRODUCT,
                    f"after:{side}:{where}{factor}",
                    "with a gate applied to the result of a matrix product instead of "
                    "to the vector that enters it",
                    functools.partial(
                        gate_after_product, side=side, element=element, factor=factor
                    ),
                )
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        for outer in ("left", "right"):
            product = getattr(node, outer)
            outside = node.right if outer == "left" else node.left
            if not (
                isinstance(product, ast.BinOp)
                and isinstance(product.op, ast.MatMult)
                and is_gate(outside, scope.helpers, scope.gates)
            ):
                continue
            for side in ("left", "right"):
                if is_transposed(getattr(product, side)):
                    continue  # a gate on the matrix itself is no mistake a learner makes
                yield Variant(
                    Operator.GATE_PRODUCT,
                    f"before:{outer}:{side}",
                    "with a gate "
                    "applied to the vector that enters a matrix product instead of to "
                    "its result",
                    functools.partial(gate_before_product, outer=outer, side=side),
                )


def is_transposed(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "T"


def is_gate(node: ast.AST, helpers: frozenset[str], gates: frozenset[str]) -> bool:
    """A sigmoid's value: a call of the sigmoid helper or a name assigned one."""
    return is_sigmoid_call(node, helpers) or (isinstance(node, ast.Name) and node.id in gates)


def without_transpose(node: ast.AST) -> ast.AST | None:
    """``M.T`` made ``M``."""
    return node.value if isinstance(node, ast.Attribute) else None


def reshaped_for_transpose(node: ast.AST) -> ast.AST | None:
    """``M.T`` made ``M.reshape(M.shape[::-1])``."""
    if not isinstance(node, ast.Attribute):
        return None
    shape = ast.Attribute(node.value, "shape", ast.Load())
    reversed_shape = ast.Subscript(
        shape, ast.Slice(step=ast.UnaryOp(ast.USub(), ast.Constant(1))), ast.Load()
    )
    return ast.Call(ast.Attribute(node.value, "reshape", ast.Load()), [reversed_shape], [])


def transposed_right(node: ast.AST) -> ast.AST | None:
    """``v @ M`` made ``v @ M.T``."""
    if not isinstance(node, ast.BinOp):
        return None
    node.right = ast.Attribute(node.right, "T", ast.Load())
    return node


def swap_product(node: ast.AST) -> ast.AST | None:
    """``v @ M.T`` made ``M @ v``, ``v @ M`` made ``M.T @ v``."""
    if not isinstance(node, ast.BinOp):
        return None
    matrix = (
        node.right.value
        if isinstance(node.right, ast.Attribute)
        else ast.Attribute(node.right, "T", ast.Load())
    )
    return ast.BinOp(matrix, ast.MatMult(), node.left)


def gated_factors(
    operand: ast.AST, helpers: frozenset[str], gates: frozenset[str]
) -> Iterator[tuple[int | None, int]]:
    """Where an operand of a matrix product holds an elementwise product ``g * v`` with a gate
    ``g`` that could be moved out of it: (None, factor) for the operand itself, (element,
    factor) for one part of a concatenation; ``factor`` is the gate's position, 0 or 1."""
    parts: list[tuple[int | None, ast.AST]] = [(None, operand)]
    if (
        function_name(operand) in CONCATENATIONS
        and isinstance(operand, ast.Call)
        and operand.args
        and isinstance(operand.args[0], ast.List | ast.Tuple)
    ):
        parts = list(enumerate(operand.args[0].elts))
    for element, part in parts:
        if isinstance(part, ast.BinOp) and isinstance(part.op, ast.Mult):
            for factor, value in enumerate((part.left, part.right)):
                if is_gate(value, helpers, gates):
                    yield element, factor


def gate_after_product(
    node: ast.AST, side: str, element: int | None, factor: int
) -> ast.AST | None:
    """``(g * v) @ W`` (or ``W @ [g * v, x]``...) made ``g * (v @ W)``."""
    if not isinstance(node, ast.BinOp):
        return None
    operand = getattr(node, side)
    parts = operand.args[0].elts if element is not None else None
    product = operand if parts is None else parts[element]
    if not isinstance(product, ast.BinOp):
        return None
    factors = (product.left, product.right)
    gate, vector = factors[factor], factors[1 - factor]
    if parts is None:
        setattr(node, side, vector)
    else:
        parts[element] = vector
    return ast.BinOp(gate, ast.Mult(), node)


def gate_before_product(node: ast.AST, outer: str, side: str) -> ast.AST | None:
    """``g * (v @ W)`` made ``(g * v) @ W`` (``side`` names the operand the gate moves to)."""
    if not isinstance(node, ast.BinOp):
        return None
    gate = node.right if outer == "left" else node.left
    product = getattr(node, outer)
    setattr(product, side, ast.BinOp(gate, ast.Mult(), getattr(product, side)))
    return product  # type: ignore[no-any-return]
