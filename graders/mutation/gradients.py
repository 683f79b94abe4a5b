"""The returned-gradient family: one of the gradients a backward pass returns transposed, or
two of them exchanged.

A weight's gradient has the weight's shape, and a learner who writes ``x.T @ dout`` in the
wrong order returns its transpose; a learner who mixes up which expression belongs to which
variable returns one gradient in another's place. Both are offered on a returned tuple of a
reference that computes gradients; a transpose of a vector changes nothing (an equivalent
mutant, never offered as a hint), and an exchange of two gradients of different shapes is
only what a learner returns who made that very exchange.
"""

from __future__ import annotations

import ast
import functools
import itertools
from collections.abc import Iterator

from graders.mutation.layouts import SWAPAXES_HELPER
from graders.mutation.nodes import Scope
from graders.mutation.operators import Operator, Variant


def gradient_variants(node: ast.AST, scope: Scope) -> Iterator[Variant]:
    """Each returned gradient transposed, and each two of three or more exchanged."""
    if not (scope.backward and isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple)):
        return
    count = len(node.value.elts)
    for position in range(count):
        yield Variant(
            Operator.TRANSPOSE_GRADIENT,
            str(position + 1),
            f"with returned value {position + 1} transposed (a gradient's rows and columns "
            "exchanged)",
            functools.partial(transposed_element, position=position),
        )
    if count < 3:  # a pair's exchange is the layout family's
        return
    for first, second in itertools.combinations(range(count), 2):
        yield Variant(
            Operator.SWAP_GRADIENTS,
            f"{first + 1},{second + 1}",
            f"with returned values {first + 1} and {second + 1} exchanged (each the gradient "
            "of the other's variable)",
            functools.partial(exchanged_elements, first=first, second=second),
        )


def transposed_element(node: ast.AST, position: int) -> ast.AST | None:
    """``return a, b`` made ``return a, b.T`` (for ``position`` 1; arrays of two axes or more
    get their last two exchanged)."""
    if not (isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple)):
        return None
    elements = node.value.elts
    elements[position] = ast.Call(
        ast.Name(SWAPAXES_HELPER, ast.Load()),
        [elements[position], ast.Constant(-1), ast.Constant(-2)],
        [],
    )
    return node


def exchanged_elements(node: ast.AST, first: int, second: int) -> ast.AST | None:
    """``return a, b, c`` made ``return c, b, a`` (for ``first`` 0 and ``second`` 2)."""
    if not (isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple)):
        return None
    elements = node.value.elts
    elements[first], elements[second] = elements[second], elements[first]
    return node
