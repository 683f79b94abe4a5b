"""graders/mutation/boundaries.py: a comparison's threshold on the other side, a sort made
unstable, a padding on every axis, a vector added as a column."""

from __future__ import annotations

import numpy as np

from graders.mutation.boundaries import boundary_variants
from graders.mutation.mutants import make_mutants
from graders.mutation.operators import Operator
from tests.graders.mutation.helpers import offered


def only(source: str, operator: Operator, entry: str = "f") -> str:
    (mutant,) = [m for m in make_mutants(source, entry) if m.operator is operator]
    return mutant.source


def run(source: str, *args: object) -> object:
    namespace: dict[str, object] = {}
    exec(compile(source, "<mutant>", "exec"), namespace)
    return namespace["f"](*args)  # type: ignore[operator]


def test_a_strict_comparison_becomes_non_strict_and_the_reverse() -> None:
    codes = {
        o.code
        for o in offered(boundary_variants, "def f(s, t):\n    return (s > t, s <= t)\n")
        if o.operator is Operator.COMPARISON_BOUNDARY
    }
    assert codes == {
        "def f(s, t):\n    return (s >= t, s <= t)",
        "def f(s, t):\n    return (s > t, s < t)",
    }


def test_a_chained_comparison_is_left_alone() -> None:
    assert not offered(boundary_variants, "def f(a, b, c):\n    return a < b < c\n")


def test_a_stable_sort_loses_its_stability_only_where_asked_for() -> None:
    source = "import numpy as np\n\ndef f(x):\n    return np.argsort(-x, axis=-1, kind='stable')\n"
    code = only(source, Operator.UNSTABLE_ORDER)
    assert "np.argsort(-x, axis=-1)" in code
    plain = "import numpy as np\n\ndef f(x):\n    return np.sort(x)\n"
    assert not [
        o for o in offered(boundary_variants, plain) if o.operator is Operator.UNSTABLE_ORDER
    ]


def test_padding_every_axis_keeps_the_unpadded_axes_sizes_from_their_start() -> None:
    source = (
        "import numpy as np\n\n"
        "def f(x, p):\n    return np.pad(x, ((0, 0), (0, 0), (p, p), (p, p)))\n"
    )
    code = only(source, Operator.PAD_EVERY_AXIS)
    assert "np.pad(x, p)[:x.shape[0], :x.shape[1]]" in code
    x = np.arange(2 * 3 * 2 * 2, dtype=float).reshape(2, 3, 2, 2) + 1
    out = run(code, x, 1)
    assert isinstance(out, np.ndarray) and out.shape == (2, 3, 4, 4)
    # The first image and channel read are padding; the next ones are shifted by one.
    assert not out[0].any() and not out[:, 0].any()
    np.testing.assert_array_equal(out[1, 1, 1:3, 1:3], x[0, 0])


def test_padding_of_unequal_widths_or_sides_is_left_alone() -> None:
    for widths in ("((0, 0), (p, 2 * p))", "((1, 1), (p, p))", "p"):
        source = f"import numpy as np\n\ndef f(x, p):\n    return np.pad(x, {widths})\n"
        assert not [
            o for o in offered(boundary_variants, source) if o.operator is Operator.PAD_EVERY_AXIS
        ]


def test_an_added_parameter_becomes_a_column() -> None:
    source = "def f(x, w, b):\n    return x @ w + b\n"
    code = only(source, Operator.VECTOR_AS_COLUMN)
    assert "x @ w + b[:, None]" in code
    out = run(code, np.eye(2), np.eye(2), np.array([1.0, 2.0]))
    np.testing.assert_array_equal(out, [[2.0, 1.0], [2.0, 3.0]])
    (variant,) = [
        o for o in offered(boundary_variants, source) if o.operator is Operator.VECTOR_AS_COLUMN
    ]
    assert variant.meaning.startswith("with b added as a column")
