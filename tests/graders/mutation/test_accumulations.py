"""graders/mutation/accumulations.py: a sum over the batch left out, an accumulated gradient
overwritten."""

from __future__ import annotations

from graders.mutation.accumulations import accumulation_variants
from graders.mutation.operators import Operator
from tests.graders.mutation.helpers import Offered, offered

BACKWARD = '"""The gradient of the weights."""\n'
HEADER = BACKWARD.strip() + "\n\n"
BATCH = (
    "without the sum over the batch (a parameter's gradient given per example where the sum "
    "of the examples' contributions belongs)"
)


def overwritten(over: str) -> str:
    return (
        "with a gradient overwritten where it accumulates: only its last contribution counts, "
        f"not those of {over} that reach the same variable"
    )


def test_the_sum_over_the_batch_axis_is_left_out() -> None:
    assert offered(accumulation_variants, BACKWARD + "def f(g):\n    return g.sum(axis=0)\n") == [
        Offered(Operator.DROP_BATCH_SUM, "", BATCH, HEADER + "def f(g):\n    return g")
    ]


def test_a_sum_along_another_axis_or_of_everything_is_no_batch_sum() -> None:
    for call in ("g.sum(axis=-1)", "g.sum()", "np.sum(g, 0)", "g.sum(axis=0, keepdims=True)"):
        assert offered(accumulation_variants, BACKWARD + f"def f(g):\n    return {call}\n") == []


def test_an_accumulation_over_the_steps_is_overwritten() -> None:
    source = BACKWARD + (
        "def f(xs, gs, W):\n"
        "    dW = 0.0 * W\n"
        "    for t in range(3):\n"
        "        dW += gs[t] * xs[t]\n"
        "    return dW\n"
    )
    assert [o for o in offered(accumulation_variants, source)] == [
        Offered(
            Operator.DROP_ACCUMULATION,
            "",
            overwritten("the other time steps or paths"),
            HEADER + "def f(xs, gs, W):\n    dW = 0.0 * W\n    for t in range(3):\n"
            "        dW = gs[t] * xs[t]\n    return dW",
        )
    ]


def test_a_path_added_to_a_gradient_is_overwritten_from_either_side() -> None:
    for value in ("dh + dx @ W", "dx @ W + dh"):
        source = BACKWARD + f"def f(dh, dx, W):\n    dh = {value}\n    return dh\n"
        assert offered(accumulation_variants, source) == [
            Offered(
                Operator.DROP_ACCUMULATION,
                "",
                overwritten("the other paths"),
                HEADER + "def f(dh, dx, W):\n    dh = dx @ W\n    return dh",
            )
        ]


def test_a_sum_of_other_names_or_another_operation_accumulates_nothing() -> None:
    for statement in ("dh = dx + dy", "dh -= dx", "dh = dh * dx"):
        source = BACKWARD + f"def f(dh, dx, dy):\n    {statement}\n    return dh\n"
        assert offered(accumulation_variants, source) == []


def test_nothing_is_offered_in_a_forward_pass() -> None:
    source = "def f(h, x):\n    h = h + x\n    h += x\n    return h.sum(axis=0)\n"
    assert offered(accumulation_variants, source) == []
