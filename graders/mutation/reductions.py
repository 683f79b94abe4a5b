"""The reduction family: an operation along another axis, a statistic of the whole array where
one per row belongs, or a mean for a sum."""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator

from graders.mutation.nodes import CONCATENATIONS, Scope, function_name
from graders.mutation.operators import Operator, Variant

# The reductions a learner takes over the whole array by leaving out the axis, by what the
# statistic is called (the hint names the statistic, not the call that computed it).
STATISTICS = {
    "sum": "sum",
    "mean": "mean",
    "max": "maximum",
    "amax": "maximum",
    "min": "minimum",
    "amin": "minimum",
    "var": "variance",
    "std": "standard deviation",
}


def reduction_variants(node: ast.AST, scope: Scope) -> Iterator[Variant]:
    """A reduction along another axis or over the whole array, or a mean for a sum."""
    if not isinstance(node, ast.Call):
        return
    name = function_name(node)
    for position, keyword in enumerate(node.keywords):
        axis = int_constant(keyword.value)
        if keyword.arg == "axis" and axis is not None:
            for other in sorted({0, 1, -1, -2} - {axis}):
                yield Variant(
                    Operator.AXIS,
                    str(other),
                    axis_meaning(name, axis, other),
                    functools.partial(other_axis, position=position, other=other),
                )
    if name in STATISTICS and any(keyword.arg == "axis" for keyword in node.keywords):
        statistic = STATISTICS[name]
        yield Variant(
            Operator.WHOLE_ARRAY,
            "",
            f"with one {statistic} of the whole array where one per row or column (along an "
            "axis) belongs",
            over_every_axis,
        )
    if name in ("sum", "mean") and isinstance(node.func, ast.Attribute):
        instead = "mean" if name == "sum" else "sum"
        yield Variant(
            Operator.MEAN_SUM,
            "",
            f"with a {instead} where a {name} belongs",
            functools.partial(exchanged_reduction, instead=instead),
        )


def int_constant(node: ast.AST) -> int | None:
    """The value of an integer literal, ``-1`` included (a unary minus in the tree)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = int_constant(node.operand)
        return None if inner is None else -inner
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    return None


def axis_meaning(function: str | None, axis: int, other: int) -> str:
    """What taking ``other`` for ``axis`` means. Outside a concatenation the wrong axis is not
    named: axis 1 and axis -1 are the same one of a matrix, and a learner wrote either (two
    meanings for one output would name neither)."""
    if function not in CONCATENATIONS:
        return f"with an operation along another axis than the one it belongs along (axis {axis})"
    if other == 0:
        return "with arrays joined along the first axis (as when no axis is given)"
    return f"with arrays joined along another axis (axis {other})"


def other_axis(node: ast.AST, position: int, other: int) -> ast.AST | None:
    """The call's ``position``-th keyword (an ``axis=``) made ``other``; axis 0 of a
    concatenation by leaving the keyword out, as a learner does."""
    if not isinstance(node, ast.Call):
        return None
    if other == 0 and function_name(node) in CONCATENATIONS:
        del node.keywords[position]
    else:
        node.keywords[position].value = ast.Constant(other)
    return node


def over_every_axis(node: ast.AST) -> ast.AST | None:
    """``x.max(axis=-1, keepdims=True)`` made ``x.max()``: a learner who forgets the axis
    forgets that the result keeps it too (a scalar broadcasts as the kept axis would)."""
    if not isinstance(node, ast.Call):
        return None
    node.keywords = [k for k in node.keywords if k.arg not in ("axis", "keepdims")]
    return node


def exchanged_reduction(node: ast.AST, instead: str) -> ast.AST | None:
    """``x.sum(...)`` made ``x.mean(...)``, or the reverse (``instead`` names the new one)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return None
    node.func.attr = instead
    return node
