"""The returned-gradient family: one of the gradients a backward pass returns transposed, or
two of them exchanged.

A weight's gradient has the weight's shape, and a learner who writes ``x.T @ dout`` in the
wrong order returns its transpose; a learner who mixes up which expression belongs to which
variable returns one gradient in another's place. Both are offered on the returned tuple of a
function that computes gradients (named for a backward pass, or documented so), not on a
forward pass's. A transpose of a vector changes nothing (an equivalent mutant, which no case
tells apart and so no learner is told of), and an exchange of two gradients of different
shapes is only what a learner returns who made that very exchange.
"""

from __future__ import annotations

import ast
import functools
import itertools
from collections.abc import Callable, Iterator

from graders.mutation.layouts import SWAPAXES_HELPER
from graders.mutation.nodes import Scope, is_gradient_function
from graders.mutation.operators import Operator, Variant

Change = Callable[[list[ast.expr]], None]
"""Changes a returned tuple's elements in place."""


def gradient_variants(node: ast.AST, scope: Scope) -> Iterator[Variant]:
    """Each returned gradient transposed, and each two of three or more exchanged."""
    if not (scope.backward and isinstance(node, ast.FunctionDef) and is_gradient_function(node)):
        return
    counts = {len(r.value.elts) for r in own_tuple_returns(node)}  # type: ignore[union-attr]
    if len(counts) != 1:  # no tuple returned, or tuples of different lengths
        return
    (count,) = counts
    for position in range(count):
        yield Variant(
            Operator.TRANSPOSE_GRADIENT,
            str(position + 1),
            f"with returned value {position + 1} transposed (a gradient's rows and columns "
            "exchanged)",
            functools.partial(
                changed_returns, change=functools.partial(transposed, position=position)
            ),
        )
    if count < 3:  # a pair's exchange is the layout family's
        return
    for first, second in itertools.combinations(range(count), 2):
        yield Variant(
            Operator.SWAP_GRADIENTS,
            f"{first + 1},{second + 1}",
            f"with returned values {first + 1} and {second + 1} exchanged (each the gradient "
            "of the other's variable)",
            functools.partial(
                changed_returns,
                change=functools.partial(exchanged, first=first, second=second),
            ),
        )


def own_tuple_returns(function: ast.FunctionDef) -> Iterator[ast.Return]:
    """The function's ``return a, b, ...`` statements (not those of the functions it
    defines)."""
    pending: list[ast.AST] = list(ast.iter_child_nodes(function))
    while pending:
        node = pending.pop()
        if isinstance(node, ast.FunctionDef | ast.Lambda):
            continue
        if isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple):
            yield node
        pending.extend(ast.iter_child_nodes(node))


def changed_returns(function: ast.AST, change: Change) -> ast.AST | None:
    """``function`` with ``change`` made to each tuple it returns."""
    if not isinstance(function, ast.FunctionDef):
        return None
    for statement in own_tuple_returns(function):
        change(statement.value.elts)  # type: ignore[union-attr]
    return function


def transposed(elements: list[ast.expr], position: int) -> None:
    """The element at ``position`` with its last two axes exchanged (``dW.T`` for ``dW``)."""
    elements[position] = ast.Call(
        ast.Name(SWAPAXES_HELPER, ast.Load()),
        [elements[position], ast.Constant(-1), ast.Constant(-2)],
        [],
    )


def exchanged(elements: list[ast.expr], first: int, second: int) -> None:
    """The elements at ``first`` and ``second`` exchanged."""
    elements[first], elements[second] = elements[second], elements[first]
