"""The accumulation family: a gradient that is not summed where contributions add up, over a
batch's examples, over time steps or over the paths that reach one variable.

A parameter serves every example of a batch and every step of a sequence, so its gradient is
the sum of their contributions; a state reaches the loss by several paths (directly and
through the next step's gates), so its gradient is the sum over the paths. A learner who
leaves out the sum over the batch returns one row per example; one who assigns where the
reference adds keeps only the last contribution.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from graders.mutation.nodes import Scope, function_name
from graders.mutation.operators import Operator, Variant
from graders.mutation.reductions import int_constant


def accumulation_variants(node: ast.AST, scope: Scope) -> Iterator[Variant]:
    """A sum over the batch axis left out, or an accumulated gradient overwritten, in a
    reference that computes gradients."""
    if not scope.backward:
        return
    if batch_sum(node):
        yield Variant(
            Operator.DROP_BATCH_SUM,
            "",
            "without the sum over the batch (a parameter's gradient given per example where "
            "the sum of the examples' contributions belongs)",
            summed_array,
        )
    if accumulated(node) is not None:
        over = "the other time steps or paths" if scope.over_time else "the other paths"
        yield Variant(
            Operator.DROP_ACCUMULATION,
            "",
            "with a gradient overwritten where it accumulates: only its last contribution "
            f"counts, not those of {over} that reach the same variable",
            overwritten,
        )


def batch_sum(node: ast.AST) -> bool:
    """Whether ``node`` is ``a.sum(axis=0)``."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and function_name(node) == "sum"
        and not node.args
        and len(node.keywords) == 1
        and node.keywords[0].arg == "axis"
        and int_constant(node.keywords[0].value) == 0
    )


def summed_array(node: ast.AST) -> ast.AST | None:
    """``a.sum(axis=0)`` made ``a``."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return None
    return node.func.value


def accumulated(node: ast.AST) -> ast.expr | None:
    """The contribution added when ``node`` is ``g += c``, ``g = g + c`` or ``g = c + g``."""
    if (
        isinstance(node, ast.AugAssign)
        and isinstance(node.op, ast.Add)
        and isinstance(node.target, ast.Name)
    ):
        return node.value
    if not (
        isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and isinstance(node.value, ast.BinOp)
        and isinstance(node.value.op, ast.Add)
    ):
        return None
    name = node.targets[0].id
    for kept, other in ((node.value.right, node.value.left), (node.value.left, node.value.right)):
        if isinstance(other, ast.Name) and other.id == name:
            return kept
    return None


def overwritten(node: ast.AST) -> ast.AST | None:
    """``g += c`` (or ``g = g + c``) made ``g = c``."""
    contribution = accumulated(node)
    if contribution is None or not isinstance(node, ast.Assign | ast.AugAssign):
        return None
    target = node.targets[0] if isinstance(node, ast.Assign) else node.target
    return ast.Assign([target], contribution)
