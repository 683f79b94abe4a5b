"""graders/mutation/gradients.py: a returned gradient transposed, two exchanged."""

from __future__ import annotations

import numpy as np

from graders.mutation.gradients import gradient_variants
from graders.mutation.mutants import make_mutants
from graders.mutation.operators import Operator
from tests.graders.mutation.helpers import offered

BACKWARD = '"""The gradients of an affine map."""\n'
AFFINE = BACKWARD + (
    "def backward(dout, x, w):\n"
    "    dx = dout @ w.T\n"
    "    dw = x.T @ dout\n"
    "    db = dout.sum(axis=0)\n"
    "    return dx, dw, db\n"
)


def test_each_returned_value_is_transposed_and_each_two_exchanged() -> None:
    offers = [(o.operator, o.name, o.meaning) for o in offered(gradient_variants, AFFINE)]
    assert offers == [
        *(
            (
                Operator.TRANSPOSE_GRADIENT,
                str(n),
                f"with returned value {n} transposed (a gradient's rows and columns exchanged)",
            )
            for n in (1, 2, 3)
        ),
        *(
            (
                Operator.SWAP_GRADIENTS,
                f"{a},{b}",
                f"with returned values {a} and {b} exchanged (each the gradient of the other's "
                "variable)",
            )
            for a, b in ((1, 2), (1, 3), (2, 3))
        ),
    ]


def test_the_mutants_return_the_transposed_and_the_exchanged_gradients() -> None:
    mutants = {m.key: m for m in make_mutants(AFFINE, "backward")}
    rng = np.random.default_rng(0)
    dout, x, w = rng.normal(size=(4, 3)), rng.normal(size=(4, 2)), rng.normal(size=(2, 3))

    def run(key: str) -> tuple[np.ndarray, ...]:
        namespace: dict[str, object] = {}
        exec(mutants[key].source, namespace)
        return namespace["backward"](dout, x, w)  # type: ignore[operator, no-any-return]

    transposed = run("transpose_gradient:2:0:2")
    np.testing.assert_allclose(transposed[1], (x.T @ dout).T)
    np.testing.assert_allclose(transposed[2], dout.sum(axis=0))  # a vector: as it was
    exchanged = run("swap_gradients:2:0:1,3")
    np.testing.assert_allclose(exchanged[0], dout.sum(axis=0))
    np.testing.assert_allclose(exchanged[2], dout @ w.T)


def test_a_pair_is_exchanged_by_the_layout_family_only() -> None:
    source = BACKWARD + "def pair_backward(a, b):\n    return a, b\n"
    assert [o.operator for o in offered(gradient_variants, source, "pair_backward")] == [
        Operator.TRANSPOSE_GRADIENT,
        Operator.TRANSPOSE_GRADIENT,
    ]


def test_a_forward_pass_beside_a_backward_one_returns_no_gradient() -> None:
    # affine-layer's forward returns (out, cache): neither is a gradient to transpose.
    source = AFFINE + "\n\ndef forward(x, w, b):\n    return x @ w + b, (x, w)\n"
    assert {o.name for o in offered(gradient_variants, source)} == {
        "1",
        "2",
        "3",
        "1,2",
        "1,3",
        "2,3",
    }
    # Only backward's tuple is changed: forward returns its own, as it was, in every mutant.
    assert all(
        "return (x @ w + b, (x, w))" in (o.code or "") for o in offered(gradient_variants, source)
    )


def test_returns_of_a_nested_function_are_left_alone() -> None:
    source = BACKWARD + (
        "def step_backward(g, v):\n"
        "    def pair(a):\n"
        "        return a, a\n"
        "    return g, v, pair(g)\n"
    )
    codes = [o.code or "" for o in offered(gradient_variants, source, "step_backward")]
    assert codes and all("return (a, a)" in code for code in codes)


def test_nothing_is_offered_for_a_forward_pass() -> None:
    forward = AFFINE.replace(BACKWARD, "").replace("def backward", "def forward")
    assert offered(gradient_variants, forward, "forward") == []
