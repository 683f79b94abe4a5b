"""graders/mutation/mutants.py, runs.py and score.py: operators, runs, cache, score."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path
from typing import Any

import numpy as np

from graders.checks.arrays import Tolerance
from graders.exercises import PreparedExercise
from graders.mutation.mutants import make_mutants
from graders.mutation.operators import Operator
from graders.mutation.runs import run_mutants
from graders.mutation.score import mutant_statuses, mutation_score

SOURCE = textwrap.dedent("""
    import numpy as np


    def sigmoid(a):
        return 1.0 / (1.0 + np.exp(-a))


    def step(h, x, W, b):
        z = sigmoid(np.concatenate([h, x], axis=-1) @ W.T + b)
        return z * h + (1.0 - z) * np.tanh(x), z
""")


def by_operator(source: str = SOURCE) -> dict[Operator, list[str]]:
    return by_operator_of(source, "step")


def by_operator_of(source: str, entry: str) -> dict[Operator, list[str]]:
    found: dict[Operator, list[str]] = {}
    for mutant in make_mutants(source, entry):
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
        assert not {"np.", "@", " z "} & {word for word in ("np.", "@", " z ")
                                          if word in mutant.meaning}
    drop_bias = [m for m in make_mutants(SOURCE, "step") if m.key.endswith(":right")
                 and m.operator is Operator.DROP_TERM]
    assert any("without the added term b" in m.meaning for m in drop_bias)


def test_a_matrix_applied_from_the_other_side() -> None:
    # v @ M.T made M @ v, v @ M made M.T @ v: the slip of a learner who writes the matrix
    # first, right for one vector and not for a batch of rows; v.T @ M is no such slip.
    source = "def f(v, M, U):\n    return v @ M.T + v @ U\n"
    mutants = {m.source.splitlines()[1].strip(): m for m in make_mutants(source, "f")
               if m.operator is Operator.TRANSPOSE}
    assert set(mutants) == {"return M @ v + v @ U", "return v @ M + v @ U",
                            "return v @ M.T + U.T @ v", "return v @ M.T + v @ U.T"}
    assert mutants["return M @ v + v @ U"].meaning == (
        "Your result equals the correct one with a matrix applied from the other side of the "
        "vector (the matrix written first, as for a column vector): the same for a single "
        "vector, not for a batch of rows.")
    assert mutants["return v @ M.T + v @ U.T"].meaning == (
        "Your result equals the correct one with a matrix transposed (rows and columns "
        "exchanged).")


def test_an_axis_of_a_concatenation_is_told_as_arrays_joined() -> None:
    meanings = {m.key.split(":")[3]: m.meaning for m in make_mutants(SOURCE, "step")
                if m.operator is Operator.AXIS}
    assert meanings == {
        "0": "Your result equals the correct one with arrays joined along the first axis (as "
             "when no axis is given).",
        "1": "Your result equals the correct one with arrays joined along another axis (axis 1).",
        "-2": "Your result equals the correct one with arrays joined along another axis "
              "(axis -2)."}
    # Any other call keeps its keyword and says so plainly.
    summed = {m.source.splitlines()[1].strip(): m.meaning
              for m in make_mutants("def f(x):\n    return x.sum(axis=-1)\n", "f")}
    assert summed["return x.sum(axis=0)"] == (
        "Your result equals the correct one with an operation along another axis (axis 0).")


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


GRADIENT = textwrap.dedent("""
    def backward(h, y, a, u, W_ux, W_ax, b_u, b_a, x):
        dh = h - y
        gate = x @ W_ux.T + b_u
        candidate = x @ W_ax.T + b_a
        return dh * (1.0 - u) * (1.0 - a * a), gate, candidate
""")


def test_a_factor_can_be_dropped_a_difference_exchanged_and_parameters_confused() -> None:
    found = by_operator_of(GRADIENT, "backward")
    assert {line for s in found[Operator.DROP_FACTOR] for line in s.splitlines()
            if "return" in line} >= {
        "    return (dh * (1.0 - u), gate, candidate)",   # the derivative factor left out
        "    return (dh * (1.0 - a * a), gate, candidate)"}
    assert any("dh = y - h" in s for s in found[Operator.SWAP_DIFFERENCE])
    # 1 - g is a complement, not a difference a learner writes the wrong way round
    assert not any("u - 1.0" in s for s in found[Operator.SWAP_DIFFERENCE])
    exchanged = [m for m in make_mutants(GRADIENT, "backward")
                 if m.operator is Operator.EXCHANGE_PARAMETERS]
    # only parameters of one kind (same name before the underscore) are confused
    assert {m.key.split(":", 3)[3] for m in exchanged} == {"W_ux:W_ax", "b_u:b_a"}
    weights = next(m for m in exchanged if m.key.endswith("W_ux:W_ax"))
    assert "gate = x @ W_ax.T + b_u" in weights.source
    assert "candidate = x @ W_ux.T + b_a" in weights.source
    assert "def backward(h, y, a, u, W_ux, W_ax, b_u, b_a, x):" in weights.source
    assert weights.meaning == ("Your result equals the correct one with the parameters W_ux "
                               "and W_ax exchanged (each used where the other belongs).")


SLIPS = textwrap.dedent("""
    import numpy as np


    def sigmoid(a):
        return np.exp(-np.logaddexp(0.0, -a))


    def pair(g, v):
        return g.T @ v


    def step(h, x, W_u, W_a, b_u, trace):
        u = sigmoid(x @ W_u.T + b_u)
        a = np.tanh(x @ W_a.T + h)
        return u * a + pair(u, x) + np.dot(h, x) + trace[1] + h.shape[1]
""")


def changed_lines(source: str, entry: str, operator: Operator) -> set[str]:
    original = ast.unparse(ast.parse(source)).splitlines()
    return {line.strip() for m in make_mutants(source, entry) if m.operator is operator
            for line in m.source.splitlines() if line not in original}


def test_copy_paste_slips_argument_order_and_misplaced_terms() -> None:
    assert changed_lines(SLIPS, "step", Operator.REPLACE_PARAMETER) == {
        "u = sigmoid(x @ W_a.T + b_u)", "a = np.tanh(x @ W_u.T + h)"}  # only one kind
    swapped = changed_lines(SLIPS, "step", Operator.SWAP_ARGUMENTS)
    # the reference's own helper and numpy calls whose arguments have roles
    assert len(swapped) == 2
    assert any("pair(x, u)" in line for line in swapped)
    assert any("np.dot(x, h)" in line for line in swapped)
    assert changed_lines(SLIPS, "step", Operator.TERM_AFTER_ACTIVATION) == {
        "u = sigmoid(x @ W_u.T) + b_u", "a = np.tanh(x @ W_a.T) + h"}
    assert changed_lines(SLIPS, "step", Operator.DOUBLE_TERM) == {
        "u = sigmoid(x @ W_u.T + b_u + b_u)", "a = np.tanh(x @ W_a.T + h + h)"}
    # an index off by one, but not a shape's axis (no learner reads .shape[0] for .shape[1])
    assert {line.split(" + ")[-2] for line in
            changed_lines(SLIPS, "step", Operator.SHIFT_CONSTANT_INDEX)} == {
        "trace[0]", "trace[2]"}
    meanings = {m.operator: m.meaning for m in make_mutants(SLIPS, "step")
                if m.key.split(":")[1] == "14"}
    assert meanings[Operator.TERM_AFTER_ACTIVATION] == (
        "Your result equals the correct one with b_u added after the sigmoid instead of "
        "inside it.")
    assert meanings[Operator.DOUBLE_TERM] == (
        "Your result equals the correct one with the added term b_u counted twice.")


def test_the_result_can_come_back_with_its_axes_exchanged() -> None:
    source = textwrap.dedent("""
        import numpy as np


        def step(h, x):
            def inner(v):
                return v + 1.0
            if np.ndim(h) == 1:
                return h, inner(x)
            return h * 2.0, x
    """)
    permuted = [m for m in make_mutants(source, "step") if m.operator is Operator.PERMUTE_OUTPUT]
    assert [m.key.split(":")[-1] for m in permuted] == ["-1,-2", "0,1"]
    namespace: dict[str, Any] = {}
    exec(permuted[0].source, namespace)
    batch = np.arange(6.0).reshape(2, 3)
    doubled, same = namespace["step"](batch, batch)
    np.testing.assert_array_equal(doubled, 2.0 * batch.T)   # each array of a tuple
    np.testing.assert_array_equal(same, batch.T)
    # a vector has no second axis; the nested function returns as before
    np.testing.assert_array_equal(namespace["step"](np.ones(2), np.ones(2))[1], np.full(2, 2.0))
    assert permuted[0].meaning == (
        "Your result equals the correct one with the axes of the result in another order: "
        "check which axis the statement puts first (the batch, the time steps or the units).")


def test_mutants_run_in_a_limited_subprocess_and_are_cached(tmp_path: Path) -> None:
    reference = "def f(x):\n    return x + 1.0\n"
    sources = ["def f(x):\n    return x\n",
               "def f(x):\n    while True:\n        pass\n",
               "def f(x):\n    return bytearray(1 << 40)\n",
               "def f(x):\n    return x + 1.0 + 0.0 * x\n",
               "def f(x):\n    return x.reshape(3) + 1.0\n"]
    inputs = [{"x": np.arange(3.0)}, {"x": np.ones(2)}]
    cache = tmp_path / "runs.frame"
    keys = ["drop", "loop", "memory", "same", "reshape"]
    arguments = {"reference": reference, "sources": sources, "entry": "f", "inputs": inputs,
                 "tolerances": [Tolerance()] * 2, "time_s": 1.0, "memory_mb": 512,
                 "keys": keys, "cache_file": cache}
    runs = run_mutants(**arguments)  # type: ignore[arg-type]
    np.testing.assert_array_equal(runs.outputs["drop"][0], np.arange(3.0))
    assert runs.outputs["loop"] == (None, None)       # stopped by the time limit
    assert runs.outputs["memory"] == (None, None)     # stopped by the memory limit
    assert runs.outputs["reshape"][1] is None
    # What each raised, by type (and the numpy operation that failed): running out of time or
    # memory is no exception of the code's.
    assert runs.raised == {"drop": (None, None), "loop": (None, None), "memory": (None, None),
                           "same": (None, None), "reshape": (None, "ValueError:reshape")}
    assert runs.probe_differs == {"drop": True, "loop": True, "memory": True, "same": False,
                                  "reshape": True}
    assert cache.is_file()
    again = run_mutants(**{**arguments, "sources": ["this is not run"] * 5})  # type: ignore[arg-type]
    np.testing.assert_array_equal(again.outputs["drop"][1], np.ones(2))
    assert (again.raised, again.probe_differs) == (runs.raised, runs.probe_differs)


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
    return [line.strip() for m in make_mutants(source, "step")
            if m.operator is Operator.GATE_PRODUCT
            for line in m.source.splitlines() if line not in original]


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
    meanings = {m.key.split(":")[3]: m.meaning for m in make_mutants(GATED, "step")
                if m.operator is Operator.GATE_PRODUCT}
    assert meanings == {
        "after": "Your result equals the correct one with a gate applied to the result of a "
                 "matrix product instead of to the vector that enters it (a reset gate after "
                 "the product, not before).",
        "before": "Your result equals the correct one with a gate applied to the vector that "
                  "enters a matrix product instead of to its result."}
