"""The vocabulary of the operator families: the kinds of change (:class:`Operator`) and one
change an operator offers at a node of a reference's syntax tree (:class:`Variant`)."""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum


class Operator(Enum):
    """A kind of change; its value begins a mutant's key and names a promoted mistake's file
    (``numjudge mutants --promote``)."""

    SWAP_CONCAT = "swap_concat"
    TRANSPOSE = "transpose"
    RESHAPE_FOR_TRANSPOSE = "reshape_for_transpose"
    DROP_TERM = "drop_term"
    SIGMOID_TANH = "sigmoid_tanh"
    DROP_ACTIVATION = "drop_activation"
    COMPLEMENT = "complement"
    SHIFT_RANGE = "shift_range"
    SHIFT_INDEX = "shift_index"
    AXIS = "axis"
    WHOLE_ARRAY = "whole_array"
    SINGLE_PRECISION = "single_precision"
    MEAN_SUM = "mean_sum"
    FLIP_SIGN = "flip_sign"
    SWAP_TUPLE = "swap_tuple"
    GATE_PRODUCT = "gate_product"
    GATE_FOR_GATE = "gate_for_gate"
    GATE_SCOPE = "gate_scope"
    ACTIVATION_INPUT = "activation_input"
    FIRST_AXIS_SLICE = "first_axis_slice"
    DROP_FACTOR = "drop_factor"
    SWAP_DIFFERENCE = "swap_difference"
    EXCHANGE_PARAMETERS = "exchange_parameters"
    REPLACE_PARAMETER = "replace_parameter"
    SWAP_ARGUMENTS = "swap_arguments"
    ARGUMENT_FOR_COMPLEMENT = "argument_for_complement"
    TERM_AFTER_ACTIVATION = "term_after_activation"
    DOUBLE_TERM = "double_term"
    SHIFT_CONSTANT_INDEX = "shift_constant_index"
    PERMUTE_OUTPUT = "permute_output"
    DROP_DERIVATIVE = "drop_derivative"
    TRANSPOSE_GRADIENT = "transpose_gradient"
    SWAP_GRADIENTS = "swap_gradients"
    DROP_BATCH_SUM = "drop_batch_sum"
    DROP_ACCUMULATION = "drop_accumulation"
    DROP_DIVISOR = "drop_divisor"
    DOUBLE_DIFFERENCE = "double_difference"
    COMPARISON_BOUNDARY = "comparison_boundary"
    UNSTABLE_ORDER = "unstable_order"
    PAD_EVERY_AXIS = "pad_every_axis"
    VECTOR_AS_COLUMN = "vector_as_column"
    INTEGERS_AS_FLOATS = "integers_as_floats"
    SWAP_BLOCKS = "swap_blocks"


# A rewrite gets a node of a copy of the tree and returns its replacement, or None when the
# operator does not apply there.
Rewrite = Callable[[ast.AST], ast.AST | None]


@dataclass(frozen=True)
class Variant:
    """One change an operator offers at a node: what it means and how to make it."""

    operator: Operator
    name: str
    """Tells apart an operator's variants at one node in a mutant's key ("" if it has one)."""
    meaning: str
    """Completes "Your result equals the correct one ..."; quotes only argument names."""
    rewrite: Rewrite
