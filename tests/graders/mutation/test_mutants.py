"""graders/mutation/mutants.py: every family's variants applied to a reference, each change
once, with a key and a meaning."""

from __future__ import annotations

import textwrap

from graders.mutation.mutants import make_mutants
from graders.mutation.operators import Operator

SOURCE = textwrap.dedent("""
    import numpy as np


    def sigmoid(a):
        return 1.0 / (1.0 + np.exp(-a))


    def step(h, x, W, b):
        z = sigmoid(np.concatenate([h, x], axis=-1) @ W.T + b)
        return z * h + (1.0 - z) * np.tanh(x), z
""")


def by_operator(source: str = SOURCE) -> dict[Operator, list[str]]:
    found: dict[Operator, list[str]] = {}
    for mutant in make_mutants(source, "step"):
        found.setdefault(mutant.operator, []).append(mutant.source)
    return found


def test_each_operator_changes_what_it_says() -> None:
    found = by_operator()
    assert any("np.concatenate([x, h], axis=-1)" in s for s in found[Operator.SWAP_CONCAT])
    assert any("@ W + b" in s for s in found[Operator.TRANSPOSE])
    assert any("@ W.T)" in s for s in found[Operator.DROP_TERM])  # the bias dropped
    assert any("(1.0 - z) * h + z * np.tanh(x)" in s for s in found[Operator.COMPLEMENT])
    assert any("_numjudge_sigmoid(x)" in s for s in found[Operator.SIGMOID_TANH])
    assert any("np.tanh(np.concatenate" in s for s in found[Operator.SIGMOID_TANH])
    assert any("(1.0 - z) * x," in s for s in found[Operator.DROP_ACTIVATION])
    assert any("return (z, z * h" in s for s in found[Operator.SWAP_TUPLE])
    # axis 0 of a concatenation is written as a learner does: the keyword left out
    assert any("np.concatenate([h, x]) @ W.T" in s for s in found[Operator.AXIS])
    assert any("np.concatenate([h, x], axis=1)" in s for s in found[Operator.AXIS])
    assert any("np.exp(a)" in s for s in found[Operator.FLIP_SIGN])


def test_meanings_do_not_quote_the_reference() -> None:
    for mutant in make_mutants(SOURCE, "step"):
        assert mutant.meaning.startswith("Your result equals the correct one ")
        assert not {"np.", "@", " z "} & {
            word for word in ("np.", "@", " z ") if word in mutant.meaning
        }
    drop_bias = [
        m
        for m in make_mutants(SOURCE, "step")
        if m.key.endswith(":right") and m.operator is Operator.DROP_TERM
    ]
    assert any("without the added term b" in m.meaning for m in drop_bias)


def test_nested_sums_get_distinct_keys() -> None:
    # a + b + c holds a + b, starting at the same place: each dropped term is its own mutant.
    source = "def f(a, b, c):\n    return a + b + c\n"
    mutants = [m for m in make_mutants(source, "f") if m.operator is Operator.DROP_TERM]
    assert len({m.key for m in mutants}) == len(mutants) == 4
    assert {m.source.splitlines()[1].strip() for m in mutants} == {
        "return a + b",
        "return c",
        "return b + c",
        "return a + c",
    }


def test_an_assigned_element_is_no_input_read_at_the_wrong_step() -> None:
    # xs[t] = ... stores a step's result: only the element read is shifted.
    source = "def f(xs, ys):\n    for t in ys:\n        xs[t] = ys[t]\n    return xs\n"
    shifted = [
        m.source.splitlines()[2].strip()
        for m in make_mutants(source, "f")
        if m.operator is Operator.SHIFT_INDEX
    ]
    assert shifted == ["xs[t] = ys[t - 1]"]


def test_a_change_two_operators_make_is_one_mutant_of_the_first() -> None:
    # W_r is never read, so exchanging W_z and W_r gives the source using W_r for W_z gives:
    # the exchange is offered first (at the function, before the names in its body).
    source = "def f(x, W_z, W_r):\n    return x @ W_z\n"
    renamed = [
        (m.key, m.source.splitlines()[1].strip())
        for m in make_mutants(source, "f")
        if m.operator in (Operator.EXCHANGE_PARAMETERS, Operator.REPLACE_PARAMETER)
    ]
    assert renamed == [("exchange_parameters:1:0:W_z:W_r", "return x @ W_r")]


def test_a_helper_a_mutant_calls_is_appended_once() -> None:
    sigmoids = [
        m.source
        for m in make_mutants(SOURCE, "step")
        if m.operator is Operator.SIGMOID_TANH and "_numjudge_sigmoid" in m.source
    ]
    assert sigmoids
    assert all(s.count("def _numjudge_sigmoid(") == 1 for s in sigmoids)
