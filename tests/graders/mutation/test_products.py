"""graders/mutation/products.py: a matrix transposed or applied from the other side, a gate
moved through a matrix product."""

from __future__ import annotations

import ast
import textwrap

from graders.mutation.mutants import make_mutants
from graders.mutation.operators import Operator
from graders.mutation.products import product_variants
from tests.graders.mutation.helpers import Offered, offered

SIGMOID = "def sigmoid(a):\n    ...\n\n"
OTHER_SIDE = (
    "with a matrix applied from the other side of the vector (the matrix written "
    "first, as for a column vector): the same for a single vector, not for a batch "
    "of rows"
)
TRANSPOSED = "with a matrix transposed (rows and columns exchanged)"
UNTRANSPOSED = "with a matrix used without the transpose it needs (rows and columns exchanged)"
RESHAPED = (
    "with a matrix given the transposed shape without being transposed (its numbers kept in "
    "their order, so rows and columns are not exchanged)"
)
GATE_AFTER = (
    "with a gate applied to the result of a matrix product instead of to the vector that enters it"
)
GATE_BEFORE = (
    "with a gate applied to the vector that enters a matrix product instead of to its result"
)


def test_a_transpose_is_dropped_or_the_matrix_moved_to_the_other_side() -> None:
    assert offered(product_variants, "def f(v, M):\n    return v @ M.T\n") == [
        Offered(Operator.TRANSPOSE, "swap", OTHER_SIDE, "def f(v, M):\n    return M @ v"),
        Offered(Operator.TRANSPOSE, "", UNTRANSPOSED, "def f(v, M):\n    return v @ M"),
        Offered(
            Operator.RESHAPE_FOR_TRANSPOSE,
            "",
            RESHAPED,
            "def f(v, M):\n    return v @ M.reshape(M.shape[::-1])",
        ),
    ]


def test_a_plain_matrix_is_transposed_or_moved_to_the_other_side() -> None:
    assert offered(product_variants, "def f(v, M):\n    return v @ M\n") == [
        Offered(Operator.TRANSPOSE, "swap", OTHER_SIDE, "def f(v, M):\n    return M.T @ v"),
        Offered(Operator.TRANSPOSE, "right", TRANSPOSED, "def f(v, M):\n    return v @ M.T"),
    ]


def test_a_transposed_left_operand_is_not_moved() -> None:
    # v.T @ M made M.T @ v is no slip a learner makes.
    assert offered(product_variants, "def f(v, M):\n    return v.T @ M\n") == [
        Offered(Operator.TRANSPOSE, "right", TRANSPOSED, "def f(v, M):\n    return v.T @ M.T"),
        Offered(Operator.TRANSPOSE, "", UNTRANSPOSED, "def f(v, M):\n    return v @ M"),
        Offered(
            Operator.RESHAPE_FOR_TRANSPOSE,
            "",
            RESHAPED,
            "def f(v, M):\n    return v.reshape(v.shape[::-1]) @ M",
        ),
    ]


def test_a_gate_moves_out_of_an_operand_or_a_part_of_a_concatenation() -> None:
    prefix = SIGMOID + "def f(h, x, W, U):\n    r = sigmoid(h)\n    return "
    source = prefix + "(r * h) @ U + np.concatenate([x, h * r]) @ W\n"
    gates = [o for o in offered(product_variants, source) if o.operator is Operator.GATE_PRODUCT]
    assert gates == [
        Offered(
            Operator.GATE_PRODUCT,
            "after:left:0",
            GATE_AFTER,
            prefix + "r * (h @ U) + np.concatenate([x, h * r]) @ W",
        ),
        # the gate of the concatenation's part 1, its factor 1
        Offered(
            Operator.GATE_PRODUCT,
            "after:left:1.1",
            GATE_AFTER,
            prefix + "r * h @ U + r * (np.concatenate([x, h]) @ W)",
        ),
    ]


def test_a_gate_moves_into_a_product_onto_either_operand_but_a_transposed_one() -> None:
    assert [
        o
        for o in offered(
            product_variants, SIGMOID + "def f(h, U):\n    return (h @ U) * sigmoid(h)\n"
        )
        if o.operator is Operator.GATE_PRODUCT
    ] == [
        Offered(
            Operator.GATE_PRODUCT,
            "before:left:left",
            GATE_BEFORE,
            SIGMOID + "def f(h, U):\n    return sigmoid(h) * h @ U",
        ),
        Offered(
            Operator.GATE_PRODUCT,
            "before:left:right",
            GATE_BEFORE,
            SIGMOID + "def f(h, U):\n    return h @ (sigmoid(h) * U)",
        ),
    ]
    assert [
        o
        for o in offered(
            product_variants, SIGMOID + "def f(h, U):\n    return sigmoid(h) * (h @ U.T)\n"
        )
        if o.operator is Operator.GATE_PRODUCT
    ] == [
        Offered(
            Operator.GATE_PRODUCT,
            "before:right:left",
            GATE_BEFORE,
            SIGMOID + "def f(h, U):\n    return sigmoid(h) * h @ U.T",
        )
    ]


def test_a_matrix_applied_from_the_other_side() -> None:
    # v @ M.T made M @ v, v @ M made M.T @ v: the slip of a learner who writes the matrix
    # first, right for one vector and not for a batch of rows; v.T @ M is no such slip.
    source = "def f(v, M, U):\n    return v @ M.T + v @ U\n"
    mutants = {
        m.source.splitlines()[1].strip(): m
        for m in make_mutants(source, "f")
        if m.operator is Operator.TRANSPOSE
    }
    assert set(mutants) == {
        "return M @ v + v @ U",
        "return v @ M + v @ U",
        "return v @ M.T + U.T @ v",
        "return v @ M.T + v @ U.T",
    }
    assert mutants["return M @ v + v @ U"].meaning == (
        "Your result equals the correct one with a matrix applied from the other side of the "
        "vector (the matrix written first, as for a column vector): the same for a single "
        "vector, not for a batch of rows."
    )
    assert mutants["return v @ M.T + v @ U.T"].meaning == (
        "Your result equals the correct one with a matrix transposed (rows and columns exchanged)."
    )


GATED = textwrap.dedent("""
    import numpy as np


    def sigmoid(a):
        return np.exp(-np.logaddexp(0.0, -a))


    def step(h, x, W, U, b, c):
        r = sigmoid(x @ W.T + b)
        joined = np.tanh(np.concatenate([r * h, x], axis=-1) @ W.T)
        looped = np.tanh((r * h) @ U + c)
        kept = sigmoid(c) * (h @ U)
        plain = (0.5 * h) @ U + (c * h) @ U
        return joined + looped + kept + plain
""")


def gate_moves(source: str = GATED) -> list[str]:
    """The line each gate mutant changed (mutants are unparsed: compare with the unparsed)."""
    original = ast.unparse(ast.parse(source)).splitlines()
    return [
        line.strip()
        for m in make_mutants(source, "step")
        if m.operator is Operator.GATE_PRODUCT
        for line in m.source.splitlines()
        if line not in original
    ]


def test_a_gate_moves_out_of_a_matrix_product_and_into_one() -> None:
    assert gate_moves() == [
        # a gate on a product's result moved onto an operand (either, unless it is a .T)
        "kept = sigmoid(c) * h @ U",  # (sigmoid(c) * h) @ U, unparsed
        "kept = h @ (sigmoid(c) * U)",
        # the reset gate after the product: of a concatenation, and of a plain vector
        "joined = np.tanh(r * (np.concatenate([h, x], axis=-1) @ W.T))",
        "looped = np.tanh(r * (h @ U) + c)",
    ]


def test_only_a_gate_moves_through_a_product() -> None:
    # Numbers and other factors (c * h) are no gate: moving a number changes nothing, and
    # another factor is not the mistake the operator names.
    assert not [line for line in gate_moves() if line.startswith("plain")]


def test_the_gate_operator_says_what_it_means_without_quoting_the_reference() -> None:
    meanings = {
        m.key.split(":")[3]: m.meaning
        for m in make_mutants(GATED, "step")
        if m.operator is Operator.GATE_PRODUCT
    }
    assert meanings == {
        "after": "Your result equals the correct one with a gate applied to the result of a "
        "matrix product instead of to the vector that enters it.",
        "before": "Your result equals the correct one with a gate applied to the vector that "
        "enters a matrix product instead of to its result.",
    }
