"""The sum family: a term left out or counted twice, the two weights of a mix exchanged."""

from __future__ import annotations

import ast
import copy
import functools
from collections.abc import Iterator

from graders.mutation.nodes import Scope, dropped_operands, is_one
from graders.mutation.operators import Operator, Variant


def sum_variants(node: ast.AST, scope: Scope) -> Iterator[Variant]:
    """A sum: a term left out or counted twice, the two weights of a mix exchanged."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add)):
        return
    yield from dropped_operands(
        node, Operator.DROP_TERM, "the added term", "one of the added terms", scope
    )
    if isinstance(node.right, ast.Name) and node.right.id in scope.parameters:
        yield Variant(
            Operator.DOUBLE_TERM,
            "",
            f"with the added term {node.right.id} counted twice",
            doubled_term,
        )
    gate = mixed_gate(node)
    if gate is not None:
        # A mix is a gate's in a recurrent cell, a rate's in an integrator, an interpolation's
        # elsewhere: the weight is named as the learner knows it, an argument, or not at all.
        weight = gate.id if isinstance(gate, ast.Name) and gate.id in scope.parameters else "w"
        yield Variant(
            Operator.COMPLEMENT,
            "",
            f"with the two weights of a mix exchanged: {weight} where 1 - {weight} belongs, "
            f"and 1 - {weight} where {weight} belongs",
            functools.partial(exchange_complement, gate=gate),
        )


def doubled_term(node: ast.AST) -> ast.AST | None:
    """``a + b`` made ``a + b + b``."""
    if not isinstance(node, ast.BinOp):
        return None
    return ast.BinOp(node, ast.Add(), copy.deepcopy(node.right))


def mixed_gate(node: ast.BinOp) -> ast.expr | None:
    """``g`` when ``node`` is ``g * a + (1 - g) * b`` (in any order of factors and terms)."""
    factors = []
    for term in (node.left, node.right):
        if not (isinstance(term, ast.BinOp) and isinstance(term.op, ast.Mult)):
            return None
        factors.append((term.left, term.right))
    plain = {ast.dump(f) for pair in factors for f in pair}
    for pair in factors:
        for factor in pair:
            if (
                isinstance(factor, ast.BinOp)
                and isinstance(factor.op, ast.Sub)
                and is_one(factor.left)
                and ast.dump(factor.right) in plain
            ):
                return factor.right
    return None


def exchange_complement(node: ast.AST, gate: ast.expr) -> ast.AST:
    """``node`` with each ``1 - gate`` in it made ``gate``, and each other ``gate`` made
    ``1.0 - gate``."""
    wanted = ast.dump(gate)

    class Exchange(ast.NodeTransformer):
        def visit_BinOp(self, n: ast.BinOp) -> ast.AST:
            if isinstance(n.op, ast.Sub) and is_one(n.left) and ast.dump(n.right) == wanted:
                return n.right
            self.generic_visit(n)
            return n

        def generic_visit(self, n: ast.AST) -> ast.AST:
            if n is not node and ast.dump(n) == wanted:
                return ast.BinOp(ast.Constant(1.0), ast.Sub(), n)  # type: ignore[arg-type]
            return super().generic_visit(n)

    return Exchange().visit(node)  # type: ignore[no-any-return]
