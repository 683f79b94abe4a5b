"""graders/mutants.py, mutant_runs.py and mutation_score.py: operators, runs, cache, score."""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np

from graders.checks.arrays import Tolerance
from graders.exercises import PreparedExercise
from graders.mutant_runs import run_mutants
from graders.mutants import Operator, make_mutants
from graders.mutation_score import mutant_statuses, mutation_score

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
    assert any("axis=0" in s for s in found[Operator.AXIS])
    assert any("np.exp(a)" in s for s in found[Operator.FLIP_SIGN])


def test_meanings_do_not_quote_the_reference() -> None:
    for mutant in make_mutants(SOURCE, "step"):
        assert mutant.meaning.startswith("Your result equals the correct one ")
        assert not {"np.", "@", " z "} & {word for word in ("np.", "@", " z ")
                                          if word in mutant.meaning}
    drop_bias = [m for m in make_mutants(SOURCE, "step") if m.key.endswith(":right")
                 and m.operator is Operator.DROP_TERM]
    assert any("without the added term b" in m.meaning for m in drop_bias)


def test_loops_get_range_and_index_mutants() -> None:
    source = textwrap.dedent("""
        def run(xs):
            total = 0.0
            for t in range(len(xs)):
                total = total + xs[t]
            return total
    """)
    found = by_operator(source)
    shifted = found[Operator.SHIFT_RANGE]
    assert any("range(len(xs) + -1)" in s for s in shifted)
    assert any("range(1, len(xs))" in s for s in shifted)
    assert any("xs[t - 1]" in s for s in found[Operator.SHIFT_INDEX])


def test_mutants_run_in_a_limited_subprocess_and_are_cached(tmp_path: Path) -> None:
    reference = "def f(x):\n    return x + 1.0\n"
    sources = ["def f(x):\n    return x\n",
               "def f(x):\n    while True:\n        pass\n",
               "def f(x):\n    return bytearray(1 << 40)\n",
               "def f(x):\n    return x + 1.0 + 0.0 * x\n"]
    inputs = [{"x": np.arange(3.0)}, {"x": np.ones(2)}]
    cache = tmp_path / "runs.frame"
    keys = ["drop", "loop", "memory", "same"]
    arguments = {"reference": reference, "sources": sources, "entry": "f", "inputs": inputs,
                 "tolerances": [Tolerance()] * 2, "time_s": 1.0, "memory_mb": 512,
                 "keys": keys, "cache_file": cache}
    runs = run_mutants(**arguments)  # type: ignore[arg-type]
    np.testing.assert_array_equal(runs.outputs["drop"][0], np.arange(3.0))
    assert runs.outputs["loop"] == (None, None)       # stopped by the time limit
    assert runs.outputs["memory"] == (None, None)     # stopped by the memory limit
    assert runs.probe_differs == {"drop": True, "loop": True, "memory": True, "same": False}
    assert cache.is_file()
    again = run_mutants(**{**arguments, "sources": ["this is not run"] * 4})  # type: ignore[arg-type]
    np.testing.assert_array_equal(again.outputs["drop"][1], np.ones(2))
    assert again.probe_differs == runs.probe_differs


def test_the_gate_has_mutants_and_every_one_is_caught(gate: PreparedExercise) -> None:
    statuses = mutant_statuses(gate)
    assert {s.mutant.operator for s in statuses} >= {
        Operator.SWAP_CONCAT, Operator.DROP_TERM, Operator.SIGMOID_TANH, Operator.TRANSPOSE}
    assert all(s.hidden_killers for s in statuses)
    score = mutation_score(gate)
    assert (score.killed, score.counted) == (len(statuses), len(statuses))
    assert score.describe() == (f"mutation score 100% ({len(statuses)} of {len(statuses)} "
                                "non-equivalent mutants fail a hidden case)")


def test_nested_sums_get_distinct_keys() -> None:
    # a + b + c holds a + b, starting at the same place: each dropped term is its own mutant.
    source = "def f(a, b, c):\n    return a + b + c\n"
    mutants = [m for m in make_mutants(source, "f") if m.operator is Operator.DROP_TERM]
    assert len({m.key for m in mutants}) == len(mutants) == 4
    assert {m.source.splitlines()[1].strip() for m in mutants} == {
        "return a + b", "return c", "return b + c", "return a + c"}
