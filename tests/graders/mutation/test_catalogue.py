"""graders/mutation/catalogue.py: every family's variants, in the catalogue's order."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from graders.exercises import load_exercise
from graders.mutation.catalogue import rewrites
from graders.mutation.mutants import make_mutants
from graders.mutation.nodes import Scope
from graders.mutation.operators import Operator

EXERCISES = Path(__file__).resolve().parents[3] / "exercises"


def test_a_node_gets_each_familys_variants_in_the_catalogues_order() -> None:
    # The concatenation family comes first, the reduction family later.
    tree = ast.parse("def f(h, x):\n    return np.concatenate([h, x], axis=-1)\n")
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.Call))
    assert [(v.operator, v.name) for v in rewrites(node, Scope.of(tree, "f"))] == [
        (Operator.SWAP_CONCAT, ""),
        (Operator.AXIS, "-2"),
        (Operator.AXIS, "0"),
        (Operator.AXIS, "1"),
    ]


# The backward exercises (their statements ask for gradients), each with the gradient
# operators its reference gives a place to: a sigmoid's or tanh's derivative, an accumulation,
# a sum over the batch, a returned tuple, a division by a count, a difference.
BACKWARD_EXERCISES = {
    "gru-step-backward": {
        Operator.DROP_DERIVATIVE,
        Operator.DROP_ACCUMULATION,
        Operator.DROP_BATCH_SUM,
        Operator.TRANSPOSE_GRADIENT,
        Operator.SWAP_GRADIENTS,
        Operator.DOUBLE_DIFFERENCE,
    },
    "lstm-step-backward": {
        Operator.DROP_DERIVATIVE,
        Operator.DROP_BATCH_SUM,
        Operator.TRANSPOSE_GRADIENT,
        Operator.SWAP_GRADIENTS,
    },
    "gated-unit-bptt": {
        Operator.DROP_DERIVATIVE,
        Operator.DROP_ACCUMULATION,
        Operator.DROP_BATCH_SUM,
        Operator.TRANSPOSE_GRADIENT,
        Operator.SWAP_GRADIENTS,
        Operator.DOUBLE_DIFFERENCE,
    },
    "softmax-cross-entropy": {
        Operator.DROP_DIVISOR,
        Operator.TRANSPOSE_GRADIENT,
        Operator.DOUBLE_DIFFERENCE,
    },
    "affine-layer": {
        Operator.DROP_BATCH_SUM,
        Operator.TRANSPOSE_GRADIENT,
        Operator.SWAP_GRADIENTS,
    },
}
GRADIENT_OPERATORS = frozenset().union(*BACKWARD_EXERCISES.values())


@pytest.mark.parametrize("exercise_id", sorted(BACKWARD_EXERCISES))
def test_every_backward_reference_gets_the_gradient_operators(exercise_id: str) -> None:
    exercise = load_exercise(EXERCISES / exercise_id)
    source = (exercise.path / "solution.py").read_text(encoding="utf-8")
    operators = {m.operator for m in make_mutants(source, exercise.names[0])}
    assert operators & GRADIENT_OPERATORS == BACKWARD_EXERCISES[exercise_id]


def test_a_forward_reference_gets_none_of_them() -> None:
    exercise = load_exercise(EXERCISES / "gru-step")
    source = (exercise.path / "solution.py").read_text(encoding="utf-8")
    assert not {m.operator for m in make_mutants(source, exercise.entry)} & GRADIENT_OPERATORS
