"""graders/mutation/nodes.py: what the operators know of a reference beyond one node."""

from __future__ import annotations

import ast
import textwrap

from graders.mutation.nodes import Scope, function_name, is_one

REFERENCE = textwrap.dedent("""
    def logistic(a):
        return 1.0 / (1.0 + np.exp(-a))


    def step(h, x, W_u, b_u):
        def scaled(v):
            return 2.0 * v
        u = logistic(x @ W_u + b_u)
        g = np.tanh(h)
        for t in range(3):
            h = u * h
        for i, row in enumerate(x):
            pass
        return scaled(h)
""")


def test_the_scope_of_a_reference() -> None:
    assert Scope.of(ast.parse(REFERENCE), "step") == Scope(
        parameters=frozenset({"h", "x", "W_u", "b_u"}),
        helpers=frozenset({"logistic"}),
        loop_variables=frozenset({"t"}),  # not a tuple of names
        gates=frozenset({"u"}),  # a sigmoid's value, not tanh's
        functions=frozenset({"logistic", "step", "scaled"}),
        activated=frozenset({("g", "h")}),  # g = tanh(h): an activation of a name
    )


def test_a_reference_without_its_entry_function_has_no_parameters() -> None:
    assert Scope.of(ast.parse(REFERENCE), "missing").parameters == frozenset()


def test_a_function_is_named_by_its_last_attribute() -> None:
    calls = [ast.parse(text, mode="eval").body for text in ("np.linalg.norm(x)", "f(x)", "x")]
    assert [function_name(call) for call in calls] == ["norm", "f", None]


def test_one_is_an_integer_or_a_float_but_not_true() -> None:
    literals = [ast.parse(text, mode="eval").body for text in ("1", "1.0", "True", "2", "x")]
    assert [is_one(literal) for literal in literals] == [True, True, False, False, False]


def test_a_reference_computes_gradients_by_its_names_or_its_docstrings() -> None:
    sources = {
        "def affine_backward(dout, cache):\n    return dout\n": True,
        "def gated_unit_bptt(x):\n    return x\n": True,
        '"""Mean loss and its gradient."""\ndef loss(p):\n    return p\n': True,
        'def loss(p):\n    """The Gradient of the loss."""\n    return p\n': True,
        "def step(h, grads):\n    return h - grads\n": False,  # uses gradients, computes none
    }
    assert {s: Scope.of(ast.parse(s), "f").backward for s in sources} == sources
