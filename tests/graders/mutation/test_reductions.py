"""graders/mutation/reductions.py: an operation along another axis, or a mean for a sum."""

from __future__ import annotations

from graders.mutation.mutants import make_mutants
from graders.mutation.operators import Operator
from graders.mutation.reductions import reduction_variants
from tests.graders.mutation.helpers import Offered, offered


def test_a_reductions_axis_is_made_each_other_axis_and_a_sum_a_mean() -> None:
    assert offered(reduction_variants, "def f(x):\n    return x.sum(axis=-1)\n") == [
        Offered(
            Operator.AXIS,
            "-2",
            "with an operation along another axis (axis -2)",
            "def f(x):\n    return x.sum(axis=-2)",
        ),
        Offered(
            Operator.AXIS,
            "0",
            "with an operation along another axis (axis 0)",
            "def f(x):\n    return x.sum(axis=0)",
        ),
        Offered(
            Operator.AXIS,
            "1",
            "with an operation along another axis (axis 1)",
            "def f(x):\n    return x.sum(axis=1)",
        ),
        Offered(
            Operator.MEAN_SUM,
            "",
            "with a mean where a sum belongs",
            "def f(x):\n    return x.mean(axis=-1)",
        ),
    ]


def test_axis_0_of_a_concatenation_is_written_as_a_learner_does_the_keyword_left_out() -> None:
    assert offered(
        reduction_variants, "def f(h, x):\n    return np.concatenate([h, x], axis=1)\n"
    ) == [
        Offered(
            Operator.AXIS,
            "-2",
            "with arrays joined along another axis (axis -2)",
            "def f(h, x):\n    return np.concatenate([h, x], axis=-2)",
        ),
        Offered(
            Operator.AXIS,
            "-1",
            "with arrays joined along another axis (axis -1)",
            "def f(h, x):\n    return np.concatenate([h, x], axis=-1)",
        ),
        Offered(
            Operator.AXIS,
            "0",
            "with arrays joined along the first axis (as when no axis is given)",
            "def f(h, x):\n    return np.concatenate([h, x])",
        ),
    ]


def test_a_mean_is_made_a_sum_and_an_axis_that_is_no_literal_kept() -> None:
    assert offered(
        reduction_variants, "def f(x, n):\n    return np.mean(x, axis=n) + x.mean()\n"
    ) == [
        Offered(
            Operator.MEAN_SUM,
            "",
            "with a sum where a mean belongs",
            "def f(x, n):\n    return np.sum(x, axis=n) + x.mean()",
        ),
        Offered(
            Operator.MEAN_SUM,
            "",
            "with a sum where a mean belongs",
            "def f(x, n):\n    return np.mean(x, axis=n) + x.sum()",
        ),
    ]


def test_an_axis_of_a_concatenation_is_told_as_arrays_joined() -> None:
    source = "def step(h, x, W):\n    return np.concatenate([h, x], axis=-1) @ W.T\n"
    meanings = {
        m.key.split(":")[3]: m.meaning
        for m in make_mutants(source, "step")
        if m.operator is Operator.AXIS
    }
    assert meanings == {
        "0": "Your result equals the correct one with arrays joined along the first axis (as "
        "when no axis is given).",
        "1": "Your result equals the correct one with arrays joined along another axis (axis 1).",
        "-2": "Your result equals the correct one with arrays joined along another axis (axis -2).",
    }
    # Any other call keeps its keyword and says so plainly.
    summed = {
        m.source.splitlines()[1].strip(): m.meaning
        for m in make_mutants("def f(x):\n    return x.sum(axis=-1)\n", "f")
    }
    assert summed["return x.sum(axis=0)"] == (
        "Your result equals the correct one with an operation along another axis (axis 0)."
    )
