"""The activation family: tanh and a sigmoid exchanged or left out, a term moved out of one.

A sigmoid put where tanh belongs calls :data:`SIGMOID_HELPER`, whose source
(:data:`SIGMOID_SOURCE`) the mutant gets appended: the reference may define no sigmoid.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from graders.mutation.nodes import Scope, function_name, is_sigmoid_call
from graders.mutation.operators import Operator, Variant

SIGMOID_HELPER = "_numjudge_sigmoid"
SIGMOID_SOURCE = (
    f"\n\ndef {SIGMOID_HELPER}(a):\n"
    "    import numpy\n"
    "    return numpy.exp(-numpy.logaddexp(0.0, -numpy.asarray(a, dtype=float)))\n"
)


def activation_variants(node: ast.AST, scope: Scope) -> Iterator[Variant]:
    """An activation exchanged or left out, or a term moved out of it."""
    if not (isinstance(node, ast.Call) and len(node.args) == 1):
        return
    is_tanh = function_name(node) == "tanh"
    is_sigmoid = is_sigmoid_call(node, scope.helpers)
    if is_tanh:
        yield Variant(
            Operator.SIGMOID_TANH, "", "with a sigmoid where tanh belongs", sigmoid_for_tanh
        )
        yield Variant(
            Operator.DROP_ACTIVATION,
            "",
            "without the tanh (the pre-activation itself)",
            pre_activation,
        )
    if is_sigmoid:
        yield Variant(
            Operator.SIGMOID_TANH, "", "with tanh where a sigmoid belongs", tanh_for_sigmoid
        )
        yield Variant(
            Operator.DROP_ACTIVATION,
            "",
            "without the sigmoid (the pre-activation itself)",
            pre_activation,
        )
    if (
        (is_tanh or is_sigmoid)
        and isinstance(node.args[0], ast.BinOp)
        and isinstance(node.args[0].op, ast.Add)
    ):
        activation = "tanh" if is_tanh else "sigmoid"
        term = node.args[0].right
        what = (
            term.id
            if isinstance(term, ast.Name) and term.id in scope.parameters
            else "the last added term"
        )
        yield Variant(
            Operator.TERM_AFTER_ACTIVATION,
            "",
            f"with {what} added after the {activation} instead of inside it",
            term_after_activation,
        )


def sigmoid_for_tanh(node: ast.AST) -> ast.AST | None:
    """``np.tanh(a)`` made a call of the appended sigmoid."""
    if not isinstance(node, ast.Call):
        return None
    return ast.Call(ast.Name(SIGMOID_HELPER, ast.Load()), node.args, [])


def tanh_for_sigmoid(node: ast.AST) -> ast.AST | None:
    """``sigmoid(a)`` made ``np.tanh(a)``."""
    if not isinstance(node, ast.Call):
        return None
    return ast.Call(ast.Attribute(ast.Name("np", ast.Load()), "tanh", ast.Load()), node.args, [])


def pre_activation(node: ast.AST) -> ast.AST | None:
    """``f(a)`` made ``a``."""
    return node.args[0] if isinstance(node, ast.Call) else None


def term_after_activation(node: ast.AST) -> ast.AST | None:
    """``f(a + b)`` made ``f(a) + b``."""
    if not (isinstance(node, ast.Call) and isinstance(node.args[0], ast.BinOp)):
        return None
    inner = node.args[0]
    node.args[0] = inner.left
    return ast.BinOp(node, ast.Add(), inner.right)
