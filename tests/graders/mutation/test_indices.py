"""graders/mutation/indices.py: a loop or an index off by one."""

from __future__ import annotations

import textwrap

from graders.mutation.indices import index_variants
from graders.mutation.mutants import make_mutants
from graders.mutation.operators import Operator
from tests.graders.mutation.helpers import SLIPS, Offered, changed_lines, offered

SHORT = "with a loop one step short (its last step left out)"
LATE = "with a loop that starts one step late (its first step skipped)"
PREVIOUS = "with each step reading the previous step's input (a time index off by one)"
NEXT_ELEMENT = "with the element next to the right one read (an index off by one)"


def loop(header: str, body: str) -> str:
    return f"def f(xs, n):\n    for t in {header}:\n        {body}\n    return xs"


def test_a_loop_from_zero_is_one_step_short_or_starts_one_step_late() -> None:
    assert offered(index_variants, loop("range(n)", "pass")) == [
        Offered(Operator.SHIFT_RANGE, "short", SHORT, loop("range(n + -1)", "pass")),
        Offered(Operator.SHIFT_RANGE, "late", LATE, loop("range(1, n)", "pass")),
    ]


def test_a_loop_with_a_start_is_only_one_step_short() -> None:
    assert offered(index_variants, loop("range(1, n)", "pass")) == [
        Offered(Operator.SHIFT_RANGE, "short", SHORT, loop("range(1, n + -1)", "pass"))
    ]
    assert offered(index_variants, loop("range(0, n, 2)", "pass")) == []  # nor with a step


def test_an_index_by_the_loop_variable_reads_the_previous_step() -> None:
    assert offered(index_variants, loop("xs", "y = xs[:, t]")) == [
        Offered(Operator.SHIFT_INDEX, "", PREVIOUS, loop("xs", "y = xs[:, t - 1]"))
    ]


def test_a_loop_that_is_not_over_time_is_told_in_iterations() -> None:
    rows = "def f(xs, n):\n    for i in {}:\n        {}\n    return xs"
    assert [
        variant.meaning for variant in offered(index_variants, rows.format("range(n)", "pass"))
    ] == [
        "with a loop one iteration short (its last iteration left out)",
        "with a loop that starts one iteration late (its first iteration skipped)",
    ]
    assert [
        variant.meaning for variant in offered(index_variants, rows.format("xs", "y = xs[i]"))
    ] == ["with each iteration reading the previous iteration's input (a loop index off by one)"]


def test_a_literal_index_is_shifted_either_way_but_not_below_zero_nor_a_shapes() -> None:
    assert offered(index_variants, "def f(xs):\n    return xs[0, 1] + xs.shape[1]\n") == [
        Offered(
            Operator.SHIFT_CONSTANT_INDEX,
            "0:1",
            NEXT_ELEMENT,
            "def f(xs):\n    return xs[1, 1] + xs.shape[1]",
        ),
        Offered(
            Operator.SHIFT_CONSTANT_INDEX,
            "1:0",
            NEXT_ELEMENT,
            "def f(xs):\n    return xs[0, 0] + xs.shape[1]",
        ),
        Offered(
            Operator.SHIFT_CONSTANT_INDEX,
            "1:2",
            NEXT_ELEMENT,
            "def f(xs):\n    return xs[0, 2] + xs.shape[1]",
        ),
    ]


def test_loops_get_range_and_index_mutants() -> None:
    source = textwrap.dedent("""
        def run(xs):
            total = 0.0
            for t in range(len(xs)):
                total = total + xs[t]
            return total
    """)
    found: dict[Operator, list[str]] = {}
    for mutant in make_mutants(source, "run"):
        found.setdefault(mutant.operator, []).append(mutant.source)
    shifted = found[Operator.SHIFT_RANGE]
    assert any("range(len(xs) + -1)" in s for s in shifted)
    assert any("range(1, len(xs))" in s for s in shifted)
    assert any("xs[t - 1]" in s for s in found[Operator.SHIFT_INDEX])


def test_an_index_is_off_by_one_but_not_a_shapes_axis() -> None:
    # No learner reads .shape[0] for .shape[1].
    assert {
        line.split(" + ")[-2]
        for line in changed_lines(SLIPS, "step", Operator.SHIFT_CONSTANT_INDEX)
    } == {"trace[0]", "trace[2]"}


def test_a_slice_of_the_last_axis_is_taken_on_the_first_in_one_place_or_everywhere() -> None:
    source = "def f(g, H):\n    return g[..., :H] + g[..., H:]\n"
    assert changed_lines(source, "f", Operator.FIRST_AXIS_SLICE) == {
        "return g[:H] + g[..., H:]",
        "return g[..., :H] + g[H:]",
        "return g[:H] + g[H:]",
    }
    # A single slice of the last axis has no "everywhere" of its own.
    assert [
        o.name
        for o in offered(index_variants, "def f(g, H):\n    return g[..., :H]\n")
        if o.operator is Operator.FIRST_AXIS_SLICE
    ] == [""]


GATES = """
import numpy as np


def f(x, W):
    a = x @ W
    H = W.shape[1] // 3
    r = np.tanh(a[..., 0:H])
    z = np.tanh(a[..., H:2 * H])
    n = np.tanh(a[..., 2 * H:3 * H])
    return r + 2 * z + 3 * n, x[..., :1], x[..., 1:]
"""


def test_two_blocks_of_one_array_are_read_in_each_others_place() -> None:
    swapped = [m for m in make_mutants(GATES, "f") if m.operator is Operator.SWAP_BLOCKS]
    # Three blocks of a: three pairs; x's two slices are a split, not blocks.
    assert len(swapped) == 3
    assert any(
        "r = np.tanh(a[..., H:2 * H])" in m.source and "z = np.tanh(a[..., 0:H])" in m.source
        for m in swapped
    )
    assert all("x[..., :1], x[..., 1:]" in m.source for m in swapped)
