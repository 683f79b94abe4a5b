"""graders/mutation/reductions.py: an operation along another axis or over the whole array, or
a mean for a sum."""

from __future__ import annotations

from graders.mutation.mutants import make_mutants
from graders.mutation.operators import Operator
from graders.mutation.reductions import reduction_variants
from tests.graders.mutation.helpers import Offered, offered


def test_a_reductions_axis_is_made_each_other_axis_the_whole_array_and_a_sum_a_mean() -> None:
    # One meaning for every wrong axis: axis 1 and axis -1 of a matrix are the same, and a
    # learner wrote either.
    other_axis = "with an operation along another axis than the one it belongs along (axis -1)"
    assert offered(reduction_variants, "def f(x):\n    return x.sum(axis=-1)\n") == [
        Offered(Operator.AXIS, "-2", other_axis, "def f(x):\n    return x.sum(axis=-2)"),
        Offered(Operator.AXIS, "0", other_axis, "def f(x):\n    return x.sum(axis=0)"),
        Offered(Operator.AXIS, "1", other_axis, "def f(x):\n    return x.sum(axis=1)"),
        Offered(
            Operator.WHOLE_ARRAY,
            "",
            "with one sum of the whole array where one per row or column (along an axis) belongs",
            "def f(x):\n    return x.sum()",
        ),
        Offered(
            Operator.MEAN_SUM,
            "",
            "with a mean where a sum belongs",
            "def f(x):\n    return x.mean(axis=-1)",
        ),
    ]


def test_a_per_row_statistic_made_global_loses_its_kept_axis_and_is_named_as_a_statistic() -> None:
    source = "def f(z):\n    return z - np.max(z, axis=-1, keepdims=True) + z.var(axis=0)\n"
    whole = [o for o in offered(reduction_variants, source) if o.operator is Operator.WHOLE_ARRAY]
    assert sorted((o.meaning.split(" of ")[0], o.code) for o in whole) == [
        ("with one maximum", "def f(z):\n    return z - np.max(z) + z.var(axis=0)"),
        (
            "with one variance",
            "def f(z):\n    return z - np.max(z, axis=-1, keepdims=True) + z.var()",
        ),
    ]


def test_a_call_that_is_no_statistic_or_has_no_axis_is_not_made_global() -> None:
    source = (
        "def f(x, y):\n"
        "    return np.argsort(x, axis=-1) + np.concatenate([x, y], axis=1) + x.sum()\n"
    )
    assert not [
        o for o in offered(reduction_variants, source) if o.operator is Operator.WHOLE_ARRAY
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


def test_a_mean_is_made_a_sum_and_global_and_an_axis_that_is_no_literal_kept() -> None:
    assert offered(
        reduction_variants, "def f(x, n):\n    return np.mean(x, axis=n) + x.mean()\n"
    ) == [
        Offered(
            Operator.WHOLE_ARRAY,
            "",
            "with one mean of the whole array where one per row or column (along an axis) belongs",
            "def f(x, n):\n    return np.mean(x) + x.mean()",
        ),
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
        "Your result equals the correct one with an operation along another axis than the one "
        "it belongs along (axis -1)."
    )
