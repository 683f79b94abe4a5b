"""graders/mutation/layouts.py: the entry function's result with two axes exchanged, or its
two returned values in the opposite order."""

from __future__ import annotations

import textwrap
from typing import Any

import numpy as np

from graders.mutation.layouts import SWAPAXES_SOURCE, layout_variants
from graders.mutation.mutants import make_mutants
from graders.mutation.operators import Operator
from tests.graders.mutation.helpers import Offered, offered

PERMUTED = (
    "with the axes of the result in another order: check which axis the statement "
    "puts first (the batch, the time steps or the units)"
)
PERMUTED_PLAIN = (
    "with the axes of the result in another order: check which axis the statement "
    "puts first (the batch or the values of one example)"
)


def test_the_time_steps_are_named_only_where_the_reference_loops_over_time() -> None:
    plain = "def f(x):\n    return x.T\n"
    over_time = "def f(xs):\n    for t in range(len(xs)):\n        pass\n    return xs\n"
    assert {variant.meaning for variant in offered(layout_variants, plain)} == {PERMUTED_PLAIN}
    assert {variant.meaning for variant in offered(layout_variants, over_time)} == {PERMUTED}


def test_the_entry_functions_result_has_two_axes_exchanged_or_its_pair_reversed() -> None:
    assert offered(layout_variants, "def f(h, x):\n    return h, x\n") == [
        Offered(
            Operator.PERMUTE_OUTPUT,
            "-1,-2",
            PERMUTED_PLAIN,
            "def f(h, x):\n    return _numjudge_swapaxes((h, x), -1, -2)" + SWAPAXES_SOURCE,
        ),
        Offered(
            Operator.PERMUTE_OUTPUT,
            "0,1",
            PERMUTED_PLAIN,
            "def f(h, x):\n    return _numjudge_swapaxes((h, x), 0, 1)" + SWAPAXES_SOURCE,
        ),
        Offered(
            Operator.SWAP_TUPLE,
            "",
            "with the returned values in the opposite order",
            "def f(h, x):\n    return (x, h)",
        ),
    ]


def test_another_function_keeps_its_layout() -> None:
    assert offered(
        layout_variants,
        "def g(v):\n    return v\n\ndef f(h, x):\n    return h\n",
    ) == [
        Offered(
            Operator.PERMUTE_OUTPUT,
            "-1,-2",
            PERMUTED_PLAIN,
            "def g(v):\n    return v\n\n"
            "def f(h, x):\n    return _numjudge_swapaxes(h, -1, -2)" + SWAPAXES_SOURCE,
        ),
        Offered(
            Operator.PERMUTE_OUTPUT,
            "0,1",
            PERMUTED_PLAIN,
            "def g(v):\n    return v\n\n"
            "def f(h, x):\n    return _numjudge_swapaxes(h, 0, 1)" + SWAPAXES_SOURCE,
        ),
    ]


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
    np.testing.assert_array_equal(doubled, 2.0 * batch.T)  # each array of a tuple
    np.testing.assert_array_equal(same, batch.T)
    # a vector has no second axis; the nested function returns as before
    np.testing.assert_array_equal(namespace["step"](np.ones(2), np.ones(2))[1], np.full(2, 2.0))
    assert permuted[0].meaning == (
        "Your result equals the correct one with the axes of the result in another order: "
        "check which axis the statement puts first (the batch or the values of one example)."
    )
