"""The boundary family: where a value is put when it sits on an edge. A comparison with its
threshold counted on the other side (``>`` for ``>=``), equal values sorted in another order
than their indices' (a stable sort made unstable), an array padded on every axis where only
some are padded, a vector broadcast as a column where it belongs as a row.

Each is a slip of a learner who has the idea right and its edge wrong: the outputs differ only
where a value equals the threshold, where values tie, on the padded edge, or in the layout of
one added term.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from graders.mutation.nodes import Scope, function_name
from graders.mutation.operators import Operator, Variant

# Each comparison and the one that counts a value equal to the threshold on the other side.
BOUNDARY_OF: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
}
SORTS = frozenset({"sort", "argsort"})


def boundary_variants(node: ast.AST, scope: Scope) -> Iterator[Variant]:
    """A comparison's boundary, a sort's stability, a padding's axes, a vector's layout."""
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in BOUNDARY_OF:
        yield Variant(
            Operator.COMPARISON_BOUNDARY,
            "",
            "with a value equal to the threshold of a comparison counted on the wrong side "
            "(a strict comparison where a non-strict one belongs, or the reverse)",
            other_boundary,
        )
    if function_name(node) in SORTS and stable_keyword(node) is not None:
        yield Variant(
            Operator.UNSTABLE_ORDER,
            "",
            "with equal values in another order than the order of their indices: the order "
            "asked for puts equal values by increasing index, as a stable sort does",
            without_stability,
        )
    if function_name(node) == "pad" and partly_padded(node) is not None:
        yield Variant(
            Operator.PAD_EVERY_AXIS,
            "",
            "with every axis of the array padded, the axes that take no padding as well, and "
            "the first entries of those read (zeros and shifted entries): pad only the axes "
            "that take padding, with a width of 0 for the others",
            padded_everywhere,
        )
    if (
        isinstance(node, ast.BinOp)
        and isinstance(node.op, ast.Add)
        and isinstance(node.right, ast.Name)
        and node.right.id in scope.parameters
    ):
        yield Variant(
            Operator.VECTOR_AS_COLUMN,
            "",
            f"with {node.right.id} added as a column (one value per row) where it belongs as "
            "a row (one value per column, the same for every row)",
            added_as_column,
        )


def other_boundary(node: ast.AST) -> ast.AST | None:
    """``a > b`` made ``a >= b``, and so on."""
    if not isinstance(node, ast.Compare):
        return None
    node.ops = [BOUNDARY_OF[type(node.ops[0])]()]
    return node


def stable_keyword(node: ast.AST) -> int | None:
    """The position of a call's ``kind="stable"`` (or ``"mergesort"``) keyword, if any."""
    if not isinstance(node, ast.Call):
        return None
    for position, keyword in enumerate(node.keywords):
        if (
            keyword.arg in ("kind", "stable")
            and isinstance(keyword.value, ast.Constant)
            and keyword.value.value in ("stable", "mergesort", True)
        ):
            return position
    return None


def without_stability(node: ast.AST) -> ast.AST | None:
    """``np.argsort(x, kind="stable")`` made ``np.argsort(x)``: the default sort, which does
    not keep equal values in index order."""
    position = stable_keyword(node)
    if position is None or not isinstance(node, ast.Call):
        return None
    del node.keywords[position]
    return node


def partly_padded(node: ast.AST) -> tuple[int, list[int]] | None:
    """For ``np.pad(x, ((0, 0), (p, p), ...))``, where some axes take one width ``p`` on both
    sides and the others none: the width's expression position and the unpadded axes."""
    if not (isinstance(node, ast.Call) and len(node.args) >= 2):
        return None
    widths = node.args[1]
    if not isinstance(widths, ast.Tuple | ast.List):
        return None
    unpadded, padded = [], set()
    for axis, pair in enumerate(widths.elts):
        if not (isinstance(pair, ast.Tuple | ast.List) and len(pair.elts) == 2):
            return None
        before, after = (ast.dump(side) for side in pair.elts)
        if before != after:
            return None
        if isinstance(pair.elts[0], ast.Constant) and pair.elts[0].value == 0:
            unpadded.append(axis)
        else:
            padded.add(before)
    if len(padded) != 1 or not unpadded:
        return None
    return 0, unpadded


def padded_everywhere(node: ast.AST) -> ast.AST | None:
    """``np.pad(x, ((0, 0), (p, p)))`` made ``np.pad(x, p)[:x.shape[0]]``: the one width on
    every axis, and the axes that took none cut back to their size from their start."""
    found = partly_padded(node)
    if found is None or not isinstance(node, ast.Call):
        return None
    _, unpadded = found
    widths = node.args[1]
    assert isinstance(widths, ast.Tuple | ast.List)
    width = next(
        pair.elts[0]
        for pair in widths.elts
        if isinstance(pair, ast.Tuple | ast.List)
        and not (isinstance(pair.elts[0], ast.Constant) and pair.elts[0].value == 0)
    )
    array = node.args[0]
    cuts: list[ast.expr] = [
        ast.Slice(
            None,
            ast.Subscript(
                ast.Attribute(array, "shape", ast.Load()), ast.Constant(axis), ast.Load()
            ),
        )
        if axis in unpadded
        else ast.Slice()
        for axis in range(max(unpadded) + 1)
    ]
    node.args[1] = width
    return ast.Subscript(node, ast.Tuple(cuts, ast.Load()), ast.Load())


def added_as_column(node: ast.AST) -> ast.AST | None:
    """``a + b`` made ``a + b[:, None]``."""
    if not isinstance(node, ast.BinOp):
        return None
    node.right = ast.Subscript(
        node.right,
        ast.Tuple([ast.Slice(), ast.Constant(None)], ast.Load()),
        ast.Load(),
    )
    return node
