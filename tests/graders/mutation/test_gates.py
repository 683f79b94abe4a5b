"""graders/mutation/gates.py: a gate for another, a gate on the wrong part of a sum, an
activation's input for its output in a backward pass."""

from __future__ import annotations

import textwrap

from graders.mutation.gates import gate_variants
from graders.mutation.operators import Operator
from tests.graders.mutation.helpers import changed_lines, offered

CELL = textwrap.dedent("""
    import numpy as np


    def sigmoid(a):
        return 1.0 / (1.0 + np.exp(-a))


    def step(gi, gh, h):
        r = sigmoid(gi + gh)
        z = sigmoid(gi - gh)
        n = np.tanh(gi + r * gh)
        return (1.0 - z) * n + z * h
""")

BACKWARD = textwrap.dedent("""
    import numpy as np


    def cell_backward(c, o, dh):
        tanh_c = np.tanh(c)
        return dh * tanh_c, dh * o * (1.0 - tanh_c**2)
""")


def test_a_gate_is_read_where_another_gate_belongs() -> None:
    assert changed_lines(CELL, "step", Operator.GATE_FOR_GATE) == {
        "n = np.tanh(gi + z * gh)",
        "return (1.0 - r) * n + z * h",
        "return (1.0 - z) * n + r * h",
    }


def test_a_gate_moves_to_the_other_term_of_a_sum_or_onto_the_whole_sum() -> None:
    assert changed_lines(CELL, "step", Operator.GATE_SCOPE) >= {
        "n = np.tanh(r * gi + gh)",
        "n = np.tanh(r * (gi + gh))",
    }
    meanings = {o.meaning for o in offered(gate_variants, CELL, "step")}
    assert {
        "with a gate applied to the other term of a sum than the one it scales",
        "with a gate applied to a whole sum instead of one of its terms",
    } <= meanings


def test_an_activations_input_is_read_for_its_output_only_in_a_backward_pass() -> None:
    assert changed_lines(BACKWARD, "cell_backward", Operator.ACTIVATION_INPUT) == {
        "return (dh * c, dh * o * (1.0 - tanh_c ** 2))",
        "return (dh * tanh_c, dh * o * (1.0 - c ** 2))",
    }
    forward = BACKWARD.replace("cell_backward", "cell").replace("dh", "s")
    assert changed_lines(forward, "cell", Operator.ACTIVATION_INPUT) == set()


def test_no_gate_no_gate_variant() -> None:
    assert offered(gate_variants, "def f(a, b):\n    return a + b * a\n") == []
