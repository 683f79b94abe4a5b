"""The gate family: one gate read where another belongs, a gate scaling the wrong part of a
sum, and in a backward pass an activation's input read where its output belongs.

A gate is a name assigned a sigmoid (:attr:`Scope.gates`). Writing ``z`` for ``r``, putting
the reset on the input's share of a sum instead of the state's, or on the whole sum, are the
slips of a learner porting a gated cell from its equations; reading ``c_t`` where
``tanh(c_t)`` belongs is the slip of one differentiating ``o * tanh(c_t)`` by hand.
"""

from __future__ import annotations

import ast
import copy
import functools
from collections.abc import Iterator

from graders.mutation.nodes import Scope
from graders.mutation.operators import Operator, Variant


def gate_variants(node: ast.AST, scope: Scope) -> Iterator[Variant]:
    """Another gate for a gate, a gate on the other term or on the whole sum, an activation's
    input for its output."""
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in scope.gates:
        for other in sorted(scope.gates - {node.id}):
            yield Variant(
                Operator.GATE_FOR_GATE,
                other,
                "with one gate used in one place where another gate belongs",
                functools.partial(renamed, name=other),
            )
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        for side in ("left", "right"):
            if gated_term(getattr(node, side), scope.gates) is not None:
                yield Variant(
                    Operator.GATE_SCOPE,
                    f"other:{side}",
                    "with a gate applied to the other term of a sum than the one it scales",
                    functools.partial(gate_on_other_term, side=side, gates=scope.gates),
                )
                yield Variant(
                    Operator.GATE_SCOPE,
                    f"whole:{side}",
                    "with a gate applied to a whole sum instead of one of its terms",
                    functools.partial(gate_on_whole_sum, side=side, gates=scope.gates),
                )
    if scope.backward and isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
        for output, entering in sorted(scope.activated):
            if node.id == output and output not in scope.gates:
                yield Variant(
                    Operator.ACTIVATION_INPUT,
                    "",
                    "with the value that enters an activation used in one place where the "
                    "activation's output belongs",
                    functools.partial(renamed, name=entering),
                )


def renamed(node: ast.AST, name: str) -> ast.AST:
    """The name read made ``name``."""
    return ast.Name(name, ast.Load())


def gated_term(node: ast.AST, gates: frozenset[str]) -> tuple[ast.expr, ast.expr] | None:
    """``(gate, other factor)`` when ``node`` is a product of a gate and something else."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult)):
        return None
    for gate, other in ((node.left, node.right), (node.right, node.left)):
        if isinstance(gate, ast.Name) and gate.id in gates:
            return gate, other
    return None


def gate_on_other_term(node: ast.AST, side: str, gates: frozenset[str]) -> ast.AST | None:
    """``a + g * b`` made ``g * a + b`` (``side`` names the gated term)."""
    if not isinstance(node, ast.BinOp):
        return None
    found = gated_term(getattr(node, side), gates)
    if found is None:
        return None
    gate, factor = found
    other_side = "left" if side == "right" else "right"
    setattr(node, side, factor)
    setattr(node, other_side, ast.BinOp(gate, ast.Mult(), getattr(node, other_side)))
    return node


def gate_on_whole_sum(node: ast.AST, side: str, gates: frozenset[str]) -> ast.AST | None:
    """``a + g * b`` made ``g * (a + b)``."""
    if not isinstance(node, ast.BinOp):
        return None
    found = gated_term(getattr(node, side), gates)
    if found is None:
        return None
    gate, factor = found
    setattr(node, side, factor)
    return ast.BinOp(copy.deepcopy(gate), ast.Mult(), node)
