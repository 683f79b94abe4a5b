"""The catalogue of mutation operators: where each applies in a reference's syntax tree, what
it changes, and what the change means to a learner, in words that do not quote the reference.

Operators come in families (one function each, chained by :func:`rewrites`): concatenations,
matrix products, sums, products and signs, activations, indices, reductions, arguments and the
result's layout. :mod:`graders.mutation.mutants` applies them to make the mutants.

Generic mutation tools (mutmut, cosmic-ray) replace operators and constants (``+`` by ``-``,
``<`` by ``<=``, ``1`` by ``2``) to measure a test suite; most of their mutants have no
meaning a learner could act on, and they run a project's tests rather than giving outputs. The
operators here are the few of theirs that have one (a sign flipped, a number off by one in a
loop's range), plus array operators they lack.
"""

from __future__ import annotations

import ast
import copy
import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import Enum


class Operator(Enum):
    SWAP_CONCAT = "swap_concat"
    TRANSPOSE = "transpose"
    DROP_TERM = "drop_term"
    SIGMOID_TANH = "sigmoid_tanh"
    DROP_ACTIVATION = "drop_activation"
    COMPLEMENT = "complement"
    SHIFT_RANGE = "shift_range"
    SHIFT_INDEX = "shift_index"
    AXIS = "axis"
    MEAN_SUM = "mean_sum"
    FLIP_SIGN = "flip_sign"
    SWAP_TUPLE = "swap_tuple"
    GATE_PRODUCT = "gate_product"
    DROP_FACTOR = "drop_factor"
    SWAP_DIFFERENCE = "swap_difference"
    EXCHANGE_PARAMETERS = "exchange_parameters"
    REPLACE_PARAMETER = "replace_parameter"
    SWAP_ARGUMENTS = "swap_arguments"
    TERM_AFTER_ACTIVATION = "term_after_activation"
    DOUBLE_TERM = "double_term"
    SHIFT_CONSTANT_INDEX = "shift_constant_index"
    PERMUTE_OUTPUT = "permute_output"


SIGMOID_HELPER = "_numjudge_sigmoid"
SIGMOID_SOURCE = (f"\n\ndef {SIGMOID_HELPER}(a):\n"
                  "    import numpy\n"
                  "    return numpy.exp(-numpy.logaddexp(0.0, -numpy.asarray(a, dtype=float)))\n")
# Exchanges two axes of every array of two or more axes in a result (each of a tuple's).
SWAPAXES_HELPER = "_numjudge_swapaxes"
SWAPAXES_SOURCE = (f"\n\ndef {SWAPAXES_HELPER}(value, first, second):\n"
                   "    import numpy\n"
                   "    if isinstance(value, tuple):\n"
                   f"        return tuple({SWAPAXES_HELPER}(v, first, second) for v in value)\n"
                   "    if isinstance(value, numpy.ndarray) and value.ndim >= 2:\n"
                   "        return numpy.swapaxes(value, first, second)\n"
                   "    return value\n")
CONCATENATIONS = frozenset({"concatenate", "hstack", "vstack", "column_stack", "stack"})
SIGMOID_NAMES = ("sigmoid", "_sigmoid", "sig", "logistic", "expit")
# Calls whose two first arguments play different roles, so that exchanging them is a mistake
# a learner makes (besides the reference's own helper functions).
ARGUMENT_ORDERED = frozenset({"dot", "outer", "matmul", "power", "subtract", "divide"})

# A rewrite gets a node of a copy of the tree and returns its replacement, or None when the
# operator does not apply there.
Rewrite = Callable[[ast.AST], ast.AST | None]
# What an operator offers at a node: the operator, a variant name, its meaning and the rewrite.
Variant = tuple[Operator, str, str, Rewrite]



@dataclass(frozen=True)
class Scope:
    """What the operators know of the reference beyond the node they change."""

    parameters: frozenset[str]
    """The entry function's arguments."""
    helpers: frozenset[str]
    """The reference's sigmoid functions."""
    loop_variables: frozenset[str]
    gates: frozenset[str]
    """The names assigned a sigmoid's value (a gate), which a gate operator moves."""
    functions: frozenset[str]
    """Every function the reference defines."""

    @classmethod
    def of(cls, tree: ast.Module, entry: str) -> Scope:
        functions = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
        helpers = frozenset(f.name for f in functions if f.name.lower() in SIGMOID_NAMES
                            or "sigmoid" in f.name.lower())
        entry_function = next((f for f in functions if f.name == entry), None)
        return cls(
            parameters=frozenset(a.arg for a in entry_function.args.args)
            if entry_function else frozenset(),
            helpers=helpers,
            loop_variables=frozenset(n.target.id for n in ast.walk(tree) if isinstance(n, ast.For)
                                     and isinstance(n.target, ast.Name)),
            gates=frozenset(target.id for n in ast.walk(tree) if isinstance(n, ast.Assign)
                            and is_sigmoid_call(n.value, helpers)
                            for target in n.targets if isinstance(target, ast.Name)),
            functions=frozenset(n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)))


def rewrites(node: ast.AST, scope: Scope) -> Iterator[Variant]:
    """The operators that apply at ``node``, each with a variant name, its meaning and how."""
    for family in FAMILIES:
        yield from family(node, scope)


def concatenation_variants(node: ast.AST, scope: Scope) -> Iterator[Variant]:
    """Two parts of a concatenation exchanged."""
    name = function_name(node)
    if isinstance(node, ast.Call) and name in CONCATENATIONS and node.args \
            and isinstance(node.args[0], ast.List | ast.Tuple) and len(node.args[0].elts) == 2:
        def swap_concat(n: ast.AST) -> ast.AST:
            assert isinstance(n, ast.Call) and isinstance(n.args[0], ast.List | ast.Tuple)
            n.args[0].elts.reverse()
            return n
        yield (Operator.SWAP_CONCAT, "", "with the two concatenated vectors in the opposite "
               "order", swap_concat)


def product_variants(node: ast.AST, scope: Scope) -> Iterator[Variant]:
    """A matrix product: a matrix transposed or applied from the other side, a gate moved
    through the product."""
    if isinstance(node, ast.Attribute) and node.attr == "T":
        yield (Operator.TRANSPOSE, "", "with a matrix used without the transpose it needs "
               "(rows and columns exchanged)", lambda n: n.value if isinstance(n, ast.Attribute)
               else None)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
        if not is_transposed(node.left) and (isinstance(node.right, ast.Name)
                                             or is_transposed(node.right)):
            # v @ M made M.T @ v (the matrix written first, as for a column vector): the
            # same for one vector, and the slip a learner makes, where v.T @ M is not.
            yield (Operator.TRANSPOSE, "swap", "with a matrix applied from the other side of "
                   "the vector (the matrix written first, as for a column vector): the same "
                   "for a single vector, not for a batch of rows", swap_product)
        if isinstance(node.right, ast.Name):
            def transpose(n: ast.AST) -> ast.AST:
                assert isinstance(n, ast.BinOp)
                n.right = ast.Attribute(n.right, "T", ast.Load())
                return n
            yield (Operator.TRANSPOSE, "right", "with a matrix transposed (rows and columns "
                   "exchanged)", transpose)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
        for side in ("left", "right"):
            for element, factor in gated_factors(getattr(node, side), scope.helpers, scope.gates):
                def after(n: ast.AST, side: str = side, element: int | None = element,
                          factor: int = factor) -> ast.AST | None:
                    return gate_after_product(n, side, element, factor)
                where = "" if element is None else f"{element}."
                yield (Operator.GATE_PRODUCT, f"after:{side}:{where}{factor}", "with a gate "
                       "applied to the result of a matrix product instead of to the vector that "
                       "enters it (a reset gate after the product, not before)", after)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        for outer in ("left", "right"):
            product = getattr(node, outer)
            outside = node.right if outer == "left" else node.left
            if not (isinstance(product, ast.BinOp) and isinstance(product.op, ast.MatMult)
                    and is_gate(outside, scope.helpers, scope.gates)):
                continue
            for side in ("left", "right"):
                if is_transposed(getattr(product, side)):
                    continue  # a gate on the matrix itself is no mistake a learner makes
                def before(n: ast.AST, outer: str = outer, side: str = side) -> ast.AST | None:
                    return gate_before_product(n, outer, side)
                yield (Operator.GATE_PRODUCT, f"before:{outer}:{side}", "with a gate applied to "
                       "the vector that enters a matrix product instead of to its result",
                       before)


def sum_variants(node: ast.AST, scope: Scope) -> Iterator[Variant]:
    """A sum: a term left out or counted twice, the two weights of a mix exchanged."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        yield from dropped_operands(node, Operator.DROP_TERM, "the added term",
                                    "one of the added terms", scope)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) \
            and isinstance(node.right, ast.Name) and node.right.id in scope.parameters:
        yield (Operator.DOUBLE_TERM, "", f"with the added term {node.right.id} counted twice",
               lambda n: ast.BinOp(n, ast.Add(), copy.deepcopy(n.right))
               if isinstance(n, ast.BinOp) else None)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        gate = mixed_gate(node)
        if gate is not None:
            def complement(n: ast.AST, gate: ast.expr = gate) -> ast.AST:
                return exchange_complement(n, gate)
            yield (Operator.COMPLEMENT, "", "with the two weights of a mix exchanged: a gate g "
                   "where 1 - g belongs, and 1 - g where g belongs", complement)


def dropped_operands(node: ast.BinOp, operator: Operator, named: str, unnamed: str,
                     scope: Scope) -> Iterator[Variant]:
    """Either operand of ``node`` left out, the other kept; ``named`` words an argument."""
    for kept, dropped in (("left", "right"), ("right", "left")):
        operand = getattr(node, dropped)
        what = f"{named} {operand.id}" if isinstance(operand, ast.Name) \
            and operand.id in scope.parameters else unnamed
        yield operator, dropped, f"without {what}", functools.partial(kept_operand, kept=kept)


def kept_operand(node: ast.AST, kept: str) -> ast.AST:
    return getattr(node, kept)  # type: ignore[no-any-return]


def factor_and_sign_variants(node: ast.AST, scope: Scope) -> Iterator[Variant]:
    """A product's factor left out, a difference or a sign turned around."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        yield from dropped_operands(node, Operator.DROP_FACTOR, "the factor",
                                    "one factor of a product", scope)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub) and not is_one(node.left):
        yield (Operator.SWAP_DIFFERENCE, "", "with the two sides of a difference exchanged "
               "(b - a where a - b belongs)", lambda n: ast.BinOp(n.right, ast.Sub(), n.left)
               if isinstance(n, ast.BinOp) else None)
        yield (Operator.FLIP_SIGN, "", "with the sign of one term flipped (an addition where a "
               "subtraction belongs)", lambda n: ast.BinOp(n.left, ast.Add(), n.right)
               if isinstance(n, ast.BinOp) else None)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) \
            and not isinstance(node.operand, ast.Constant):
        yield (Operator.FLIP_SIGN, "", "with the sign of one term flipped",
               lambda n: n.operand if isinstance(n, ast.UnaryOp) else None)


def activation_variants(node: ast.AST, scope: Scope) -> Iterator[Variant]:
    """An activation exchanged or left out, or a term moved out of it."""
    name = function_name(node)
    if name == "tanh" and isinstance(node, ast.Call) and len(node.args) == 1:
        yield (Operator.SIGMOID_TANH, "", "with a sigmoid where tanh belongs",
               lambda n: ast.Call(ast.Name(SIGMOID_HELPER, ast.Load()), n.args, [])
               if isinstance(n, ast.Call) else None)
        yield (Operator.DROP_ACTIVATION, "", "without the tanh (the pre-activation itself)",
               lambda n: n.args[0] if isinstance(n, ast.Call) else None)
    if is_sigmoid_call(node, scope.helpers) and isinstance(node, ast.Call) and len(node.args) == 1:
        yield (Operator.SIGMOID_TANH, "", "with tanh where a sigmoid belongs",
               lambda n: ast.Call(ast.Attribute(ast.Name("np", ast.Load()), "tanh", ast.Load()),
                                  n.args, []) if isinstance(n, ast.Call) else None)
        yield (Operator.DROP_ACTIVATION, "", "without the sigmoid (the pre-activation itself)",
               lambda n: n.args[0] if isinstance(n, ast.Call) else None)
    if (name == "tanh" or is_sigmoid_call(node, scope.helpers)) and isinstance(node, ast.Call) \
            and len(node.args) == 1 and isinstance(node.args[0], ast.BinOp) \
            and isinstance(node.args[0].op, ast.Add):
        activation = "tanh" if name == "tanh" else "sigmoid"
        term = node.args[0].right
        what = term.id if isinstance(term, ast.Name) and term.id in scope.parameters \
            else "the last added term"
        def term_after(n: ast.AST) -> ast.AST | None:
            if not (isinstance(n, ast.Call) and isinstance(n.args[0], ast.BinOp)):
                return None
            inner = n.args[0]
            n.args[0] = inner.left
            return ast.BinOp(n, ast.Add(), inner.right)
        yield (Operator.TERM_AFTER_ACTIVATION, "", f"with {what} added after the {activation} "
               "instead of inside it", term_after)


def index_variants(node: ast.AST, scope: Scope) -> Iterator[Variant]:
    """A loop or an index off by one."""
    name = function_name(node)
    if name == "range" and isinstance(node, ast.Call) and 1 <= len(node.args) <= 2:
        stop = len(node.args) - 1
        def short(n: ast.AST, stop: int = stop) -> ast.AST | None:
            return shifted_argument(n, stop, -1)
        yield (Operator.SHIFT_RANGE, "short", "with a loop one step short (its last step left "
               "out)", short)
        if len(node.args) == 1:
            yield (Operator.SHIFT_RANGE, "late", "with a loop that starts one step late (its "
                   "first step skipped)", lambda n: ast.Call(n.func, [ast.Constant(1), n.args[0]],
                                                             []) if isinstance(n, ast.Call)
                   else None)
    if isinstance(node, ast.Subscript) and scope.loop_variables & names_in_index(node.slice):
        yield (Operator.SHIFT_INDEX, "", "with each step reading the previous step's input (a "
               "time index off by one)", lambda n: shifted_index(n, scope.loop_variables))
    if isinstance(node, ast.Subscript) and not is_shape(node.value):
        for position, index in constant_indices(node):
            for by in (-1, 1):
                if index + by < 0:
                    continue
                def shift(n: ast.AST, position: int = position, value: int = index + by
                          ) -> ast.AST | None:
                    return with_constant_index(n, position, value)
                yield (Operator.SHIFT_CONSTANT_INDEX, f"{position}:{index + by}", "with the "
                       "element next to the right one read (an index off by one)", shift)


def reduction_variants(node: ast.AST, scope: Scope) -> Iterator[Variant]:
    """A reduction along another axis, or a mean for a sum."""
    name = function_name(node)
    if isinstance(node, ast.Call):
        for position, keyword in enumerate(node.keywords):
            axis = int_constant(keyword.value)
            if keyword.arg == "axis" and axis is not None:
                for other in sorted({0, 1, -1, -2} - {axis}):
                    yield (Operator.AXIS, str(other), axis_meaning(name, other),
                           functools.partial(other_axis, position=position, other=other))
    if name in ("sum", "mean") and isinstance(node, ast.Call):
        instead = "mean" if name == "sum" else "sum"
        def exchange(n: ast.AST, instead: str = instead) -> ast.AST:
            assert isinstance(n, ast.Call)
            if isinstance(n.func, ast.Attribute):
                n.func.attr = instead
            return n
        if isinstance(node.func, ast.Attribute):
            yield (Operator.MEAN_SUM, "", f"with a {instead} where a {name} belongs", exchange)


def argument_variants(node: ast.AST, scope: Scope) -> Iterator[Variant]:
    """Arguments confused: one for another of its kind, two exchanged, a call's order."""
    name = function_name(node)
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) \
            and node.id in scope.parameters:
        for substitute in sorted(same_kind(node.id, scope.parameters)):
            def replace(n: ast.AST, substitute: str = substitute) -> ast.AST:
                return ast.Name(substitute, ast.Load())
            yield (Operator.REPLACE_PARAMETER, substitute, f"with {substitute} used in one "
                   f"place where {node.id} belongs", replace)
    if isinstance(node, ast.FunctionDef):
        for first, second in exchangeable(node, scope.parameters):
            def exchange_parameters(n: ast.AST, first: str = first, second: str = second
                                    ) -> ast.AST:
                return exchange_names(n, first, second)
            yield (Operator.EXCHANGE_PARAMETERS, f"{first}:{second}", f"with the parameters "
                   f"{first} and {second} exchanged (each used where the other belongs)",
                   exchange_parameters)
    if isinstance(node, ast.Call) and len(node.args) >= 2 \
            and ast.dump(node.args[0]) != ast.dump(node.args[1]) \
            and (name in ARGUMENT_ORDERED or (isinstance(node.func, ast.Name)
                                              and node.func.id in scope.functions)):
        def swap_arguments(n: ast.AST) -> ast.AST:
            assert isinstance(n, ast.Call)
            n.args[0], n.args[1] = n.args[1], n.args[0]
            return n
        yield (Operator.SWAP_ARGUMENTS, "", "with the first two arguments of a call exchanged",
               swap_arguments)


def result_variants(node: ast.AST, scope: Scope) -> Iterator[Variant]:
    """The result in another layout: its axes or a returned pair's order."""
    if isinstance(node, ast.FunctionDef) and is_entry(node, scope.parameters):
        for axes in ((-1, -2), (0, 1)):
            def permute(n: ast.AST, axes: tuple[int, int] = axes) -> ast.AST:
                return permuted_returns(n, axes)
            yield (Operator.PERMUTE_OUTPUT, f"{axes[0]},{axes[1]}", "with the axes of the "
                   "result in another order: check which axis the statement puts first (the "
                   "batch, the time steps or the units)", permute)
    if isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple) \
            and len(node.value.elts) == 2:
        def swap_tuple(n: ast.AST) -> ast.AST:
            assert isinstance(n, ast.Return) and isinstance(n.value, ast.Tuple)
            n.value.elts.reverse()
            return n
        yield (Operator.SWAP_TUPLE, "", "with the returned values in the opposite order",
               swap_tuple)


FAMILIES: tuple[Callable[[ast.AST, Scope], Iterator[Variant]], ...] = (
    concatenation_variants,
    product_variants,
    sum_variants,
    factor_and_sign_variants,
    activation_variants,
    index_variants,
    reduction_variants,
    argument_variants,
    result_variants)


def function_name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Attribute):
            return node.func.attr
        if isinstance(node.func, ast.Name):
            return node.func.id
    return None


def is_one(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value in (1, 1.0) \
        and not isinstance(node.value, bool)


def is_sigmoid_call(node: ast.AST, helpers: frozenset[str]) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
        and node.func.id in helpers


def same_kind(name: str, parameters: frozenset[str]) -> set[str]:
    """The other parameters of ``name``'s kind, which a learner can confuse with it: the same
    name before the first underscore (``W_z`` and ``W_r``, ``b_u`` and ``b_a``)."""
    if "_" not in name:
        return set()
    kind = name.split("_")[0]
    return {p for p in parameters if p != name and "_" in p and p.split("_")[0] == kind}


def exchangeable(function: ast.FunctionDef, parameters: frozenset[str]
                 ) -> Iterator[tuple[str, str]]:
    """Pairs of the function's arguments of one kind (:func:`same_kind`)."""
    names = [a.arg for a in function.args.args if a.arg in parameters]
    for i, first in enumerate(names):
        for second in names[i + 1:]:
            if second in same_kind(first, parameters):
                yield first, second


def is_entry(function: ast.FunctionDef, parameters: frozenset[str]) -> bool:
    return bool(parameters) and {a.arg for a in function.args.args} == parameters


def permuted_returns(function: ast.AST, axes: tuple[int, int]) -> ast.AST:
    """``function`` returning its values with two axes exchanged (not its nested functions')."""
    pending = list(ast.iter_child_nodes(function))
    while pending:
        node = pending.pop()
        if isinstance(node, ast.FunctionDef | ast.Lambda):
            continue
        if isinstance(node, ast.Return) and node.value is not None:
            node.value = ast.Call(ast.Name(SWAPAXES_HELPER, ast.Load()),
                                  [node.value, *(ast.Constant(a) for a in axes)], [])
        pending.extend(ast.iter_child_nodes(node))
    return function


def is_shape(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "shape"


def constant_indices(node: ast.Subscript) -> Iterator[tuple[int, int]]:
    """(position, value) of each non-negative integer literal among the subscript's indices."""
    parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    for position, part in enumerate(parts):
        if isinstance(part, ast.Constant) and type(part.value) is int and part.value >= 0:
            yield position, part.value


def with_constant_index(node: ast.AST, position: int, value: int) -> ast.AST | None:
    if not isinstance(node, ast.Subscript):
        return None
    if isinstance(node.slice, ast.Tuple):
        node.slice.elts[position] = ast.Constant(value)
    else:
        node.slice = ast.Constant(value)
    return node


def exchange_names(function: ast.AST, first: str, second: str) -> ast.AST:
    """``function`` with every use of ``first`` in its body reading ``second``, and back."""
    other = {first: second, second: first}
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and node.id in other:
            node.id = other[node.id]
    return function


def axis_meaning(function: str | None, axis: int) -> str:
    if function not in CONCATENATIONS:
        return f"with an operation along another axis (axis {axis})"
    if axis == 0:
        return "with arrays joined along the first axis (as when no axis is given)"
    return f"with arrays joined along another axis (axis {axis})"


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


def gated_factors(operand: ast.AST, helpers: frozenset[str], gates: frozenset[str]
                  ) -> Iterator[tuple[int | None, int]]:
    """Where an operand of a matrix product holds an elementwise product ``g * v`` with a gate
    ``g`` that could be moved out of it: (None, factor) for the operand itself, (element,
    factor) for one part of a concatenation; ``factor`` is the gate's position, 0 or 1."""
    parts: list[tuple[int | None, ast.AST]] = [(None, operand)]
    if function_name(operand) in CONCATENATIONS and isinstance(operand, ast.Call) \
            and operand.args and isinstance(operand.args[0], ast.List | ast.Tuple):
        parts = list(enumerate(operand.args[0].elts))
    for element, part in parts:
        if isinstance(part, ast.BinOp) and isinstance(part.op, ast.Mult):
            for factor, value in enumerate((part.left, part.right)):
                if is_gate(value, helpers, gates):
                    yield element, factor


def is_gate(node: ast.AST, helpers: frozenset[str], gates: frozenset[str]) -> bool:
    """A sigmoid's value: a call of the sigmoid helper or a name assigned one."""
    return is_sigmoid_call(node, helpers) or (isinstance(node, ast.Name) and node.id in gates)


def is_transposed(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "T"


def swap_product(node: ast.AST) -> ast.AST | None:
    """``v @ M.T`` made ``M @ v``, ``v @ M`` made ``M.T @ v``."""
    if not isinstance(node, ast.BinOp):
        return None
    matrix = node.right.value if isinstance(node.right, ast.Attribute) \
        else ast.Attribute(node.right, "T", ast.Load())
    return ast.BinOp(matrix, ast.MatMult(), node.left)


def gate_after_product(node: ast.AST, side: str, element: int | None,
                       factor: int) -> ast.AST | None:
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


def int_constant(node: ast.AST) -> int | None:
    """The value of an integer literal, ``-1`` included (a unary minus in the tree)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = int_constant(node.operand)
        return None if inner is None else -inner
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    return None


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
            if isinstance(factor, ast.BinOp) and isinstance(factor.op, ast.Sub) \
                    and is_one(factor.left) and ast.dump(factor.right) in plain:
                return factor.right
    return None


def exchange_complement(node: ast.AST, gate: ast.expr) -> ast.AST:
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


def shifted_argument(node: ast.AST, position: int, by: int) -> ast.AST | None:
    if not isinstance(node, ast.Call):
        return None
    node.args[position] = ast.BinOp(node.args[position], ast.Add(), ast.Constant(by))
    return node


def names_in_index(index: ast.AST) -> set[str]:
    parts = index.elts if isinstance(index, ast.Tuple) else [index]
    return {part.id for part in parts if isinstance(part, ast.Name)}


def shifted_index(node: ast.AST, loop_variables: frozenset[str]) -> ast.AST | None:
    if not isinstance(node, ast.Subscript):
        return None
    parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    shifted = [ast.BinOp(p, ast.Sub(), ast.Constant(1))
               if isinstance(p, ast.Name) and p.id in loop_variables else p for p in parts]
    node.slice = ast.Tuple(shifted, ast.Load()) if isinstance(node.slice, ast.Tuple) \
        else shifted[0]
    return node
