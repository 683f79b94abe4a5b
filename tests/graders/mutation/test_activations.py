"""graders/mutation/activations.py: tanh and a sigmoid exchanged or left out, a term moved out
of one."""

from __future__ import annotations

from graders.mutation.activations import SIGMOID_SOURCE, activation_variants
from graders.mutation.mutants import make_mutants
from graders.mutation.operators import Operator
from tests.graders.mutation.helpers import SLIPS, Offered, changed_lines, offered

SIGMOID = "def sigmoid(a):\n    ...\n\n"


def test_tanh_is_made_a_sigmoid_left_out_or_given_a_term_after_it() -> None:
    assert offered(activation_variants, "def f(x, W, b):\n    return np.tanh(x @ W + b)\n") == [
        # The reference need not define a sigmoid: the mutant gets one appended.
        Offered(
            Operator.SIGMOID_TANH,
            "",
            "with a sigmoid where tanh belongs",
            "def f(x, W, b):\n    return _numjudge_sigmoid(x @ W + b)" + SIGMOID_SOURCE,
        ),
        Offered(
            Operator.DROP_ACTIVATION,
            "",
            "without the tanh (the pre-activation itself)",
            "def f(x, W, b):\n    return x @ W + b",
        ),
        Offered(
            Operator.TERM_AFTER_ACTIVATION,
            "",
            "with b added after the tanh instead of inside it",
            "def f(x, W, b):\n    return np.tanh(x @ W) + b",
        ),
    ]


def test_the_references_sigmoid_is_made_tanh_left_out_or_given_a_term_after_it() -> None:
    assert offered(
        activation_variants, SIGMOID + "def f(x, W, b):\n    return sigmoid(x @ W + x * b)\n"
    ) == [
        Offered(
            Operator.SIGMOID_TANH,
            "",
            "with tanh where a sigmoid belongs",
            SIGMOID + "def f(x, W, b):\n    return np.tanh(x @ W + x * b)",
        ),
        Offered(
            Operator.DROP_ACTIVATION,
            "",
            "without the sigmoid (the pre-activation itself)",
            SIGMOID + "def f(x, W, b):\n    return x @ W + x * b",
        ),
        # a term that is no argument is not quoted
        Offered(
            Operator.TERM_AFTER_ACTIVATION,
            "",
            "with the last added term added after the sigmoid instead of inside it",
            SIGMOID + "def f(x, W, b):\n    return sigmoid(x @ W) + x * b",
        ),
    ]


def test_a_function_the_reference_does_not_define_is_no_sigmoid() -> None:
    assert offered(activation_variants, "def f(x):\n    return sigmoid(x) + np.tanh(x, x)\n") == []


def test_a_term_is_moved_out_of_tanh_and_of_the_references_sigmoid() -> None:
    assert changed_lines(SLIPS, "step", Operator.TERM_AFTER_ACTIVATION) == {
        "u = sigmoid(x @ W_u.T) + b_u",
        "a = np.tanh(x @ W_a.T) + h",
    }
    meanings = {
        m.meaning
        for m in make_mutants(SLIPS, "step")
        if m.operator is Operator.TERM_AFTER_ACTIVATION and m.line == 14
    }
    assert meanings == {
        "Your result equals the correct one with b_u added after the sigmoid instead of inside it."
    }
