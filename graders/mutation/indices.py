"""The index family: a loop or an index off by one, a slice of the last axis taken on the first
(``x[:H]`` for ``x[..., :H]``: right for one vector, not for a batch), two blocks of one array
read in each other's place (gates cut from their pre-activations in another order)."""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator

from graders.mutation.nodes import Scope, function_name
from graders.mutation.operators import Operator, Variant


def index_variants(node: ast.AST, scope: Scope) -> Iterator[Variant]:
    """A loop or an index off by one."""
    # A loop over time has steps; any other loop is told in the words of the code.
    step, shifted = ("step", "a time index") if scope.over_time else ("iteration", "a loop index")
    if function_name(node) == "range" and isinstance(node, ast.Call) and 1 <= len(node.args) <= 2:
        yield Variant(
            Operator.SHIFT_RANGE,
            "short",
            f"with a loop one {step} short (its last {step} left out)",
            functools.partial(shifted_argument, position=len(node.args) - 1, by=-1),
        )
        if len(node.args) == 1:
            yield Variant(
                Operator.SHIFT_RANGE,
                "late",
                f"with a loop that starts one {step} late (its first {step} skipped)",
                started_late,
            )
    if isinstance(node, ast.Subscript) and scope.loop_variables & names_in_index(node.slice):
        yield Variant(
            Operator.SHIFT_INDEX,
            "",
            f"with each {step} reading the previous {step}'s input ({shifted} off by one)",
            functools.partial(shifted_index, loop_variables=scope.loop_variables),
        )
    if isinstance(node, ast.FunctionDef) and sum(map(of_last_axis, ast.walk(node))) >= 2:
        # A learner who slices the first axis does it everywhere: one meaning for all.
        yield Variant(
            Operator.FIRST_AXIS_SLICE,
            "all",
            "with every index or slice taken along the first axis where it belongs along the "
            "last (the same for a single vector, not for a batch of rows)",
            every_slice_on_first_axis,
        )
    if isinstance(node, ast.FunctionDef):
        for first, second in exchangeable_blocks(node):
            yield Variant(
                Operator.SWAP_BLOCKS,
                f"{first}:{second}",
                "with two blocks of one array read in each other's place (the blocks cut in "
                "another order than the statement's)",
                functools.partial(swapped_blocks, first=first, second=second),
            )
    if of_last_axis(node):
        yield Variant(
            Operator.FIRST_AXIS_SLICE,
            "",
            "with an index or slice taken along the first axis where it belongs along the last "
            "(the same for a single vector, not for a batch of rows)",
            on_first_axis,
        )
    # No learner reads .shape[0] for .shape[1]: a shape's axes are no index to shift.
    if isinstance(node, ast.Subscript) and not is_shape(node.value):
        for position, index in constant_indices(node):
            for by in (-1, 1):
                if index + by < 0:
                    continue
                yield Variant(
                    Operator.SHIFT_CONSTANT_INDEX,
                    f"{position}:{index + by}",
                    "with the element next to the right one read (an index off by one)",
                    functools.partial(with_constant_index, position=position, value=index + by),
                )


def of_last_axis(node: ast.AST) -> bool:
    """Whether ``node`` is ``x[..., s]``: an index or a slice of the last axis."""
    return (
        isinstance(node, ast.Subscript)
        and isinstance(node.slice, ast.Tuple)
        and len(node.slice.elts) == 2
        and isinstance(node.slice.elts[0], ast.Constant)
        and node.slice.elts[0].value is Ellipsis
    )


# The fewest blocks of one array that make them gates or parts (two are a split, such as the
# hidden state's and the input's columns, which other operators exchange).
MIN_BLOCKS = 3


def blocks(function: ast.AST) -> dict[str, list[ast.Subscript]]:
    """The slices ``x[..., lo:hi]`` of the function, by the array they cut."""
    found: dict[str, list[ast.Subscript]] = {}
    for node in ast.walk(function):
        if (
            of_last_axis(node)
            and isinstance(node, ast.Subscript)
            and isinstance(node.slice, ast.Tuple)
            and isinstance(node.slice.elts[1], ast.Slice)
            and isinstance(node.ctx, ast.Load)
        ):
            found.setdefault(ast.dump(node.value), []).append(node)
    return found


def exchangeable_blocks(function: ast.AST) -> Iterator[tuple[int, int]]:
    """Pairs of positions, in the function's walk order of slices, of two different blocks of
    one array cut into at least ``MIN_BLOCKS``."""
    every = [node for group in blocks(function).values() for node in group]
    for group in blocks(function).values():
        if len({ast.dump(node.slice) for node in group}) < MIN_BLOCKS:
            continue
        for i, first in enumerate(group):
            for second in group[i + 1 :]:
                if ast.dump(first.slice) != ast.dump(second.slice):
                    yield every.index(first), every.index(second)


def swapped_blocks(function: ast.AST, first: int, second: int) -> ast.AST:
    """The function with the ``first`` and ``second`` slices (:func:`exchangeable_blocks`'
    positions) exchanged."""
    every = [node for group in blocks(function).values() for node in group]
    one, other = every[first], every[second]
    one.slice, other.slice = other.slice, one.slice
    return function


def every_slice_on_first_axis(node: ast.AST) -> ast.AST:
    """Every ``x[..., s]`` in the function made ``x[s]``."""
    for inner in ast.walk(node):
        if of_last_axis(inner):
            on_first_axis(inner)
    return node


def on_first_axis(node: ast.AST) -> ast.AST | None:
    """``x[..., s]`` made ``x[s]``."""
    if not (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Tuple)):
        return None
    node.slice = node.slice.elts[1]
    return node


def shifted_argument(node: ast.AST, position: int, by: int) -> ast.AST | None:
    """The call with ``by`` added to its ``position``-th argument."""
    if not isinstance(node, ast.Call):
        return None
    node.args[position] = ast.BinOp(node.args[position], ast.Add(), ast.Constant(by))
    return node


def started_late(node: ast.AST) -> ast.AST | None:
    """``range(n)`` made ``range(1, n)``."""
    if not isinstance(node, ast.Call):
        return None
    return ast.Call(node.func, [ast.Constant(1), node.args[0]], [])


def names_in_index(index: ast.AST) -> set[str]:
    parts = index.elts if isinstance(index, ast.Tuple) else [index]
    return {part.id for part in parts if isinstance(part, ast.Name)}


def shifted_index(node: ast.AST, loop_variables: frozenset[str]) -> ast.AST | None:
    """The subscript with each loop variable ``t`` among its indices made ``t - 1``."""
    if not isinstance(node, ast.Subscript):
        return None
    parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    shifted = [
        ast.BinOp(p, ast.Sub(), ast.Constant(1))
        if isinstance(p, ast.Name) and p.id in loop_variables
        else p
        for p in parts
    ]
    node.slice = ast.Tuple(shifted, ast.Load()) if isinstance(node.slice, ast.Tuple) else shifted[0]
    return node


def is_shape(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "shape"


def constant_indices(node: ast.Subscript) -> Iterator[tuple[int, int]]:
    """(position, value) of each non-negative integer literal among the subscript's indices."""
    parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    for position, part in enumerate(parts):
        if isinstance(part, ast.Constant) and type(part.value) is int and part.value >= 0:
            yield position, part.value


def with_constant_index(node: ast.AST, position: int, value: int) -> ast.AST | None:
    """The subscript with its ``position``-th index made the literal ``value``."""
    if not isinstance(node, ast.Subscript):
        return None
    if isinstance(node.slice, ast.Tuple):
        node.slice.elts[position] = ast.Constant(value)
    else:
        node.slice = ast.Constant(value)
    return node
