"""graders/mutation/derivatives.py: an activation's derivative left out of a chain rule."""

from __future__ import annotations

from graders.mutation.derivatives import derivative_variants
from graders.mutation.mutants import make_mutants
from graders.mutation.operators import Operator
from tests.graders.mutation.helpers import GRADIENT, Offered, offered

SIGMOID = "without the sigmoid's derivative s(1 - s) in the chain rule"
TANH = "without the tanh's derivative 1 - t² in the chain rule"
BACKWARD = '"""The gradient of the gate."""\n'


def test_a_sigmoids_derivative_goes_as_a_whole() -> None:
    source = BACKWARD + "def f(dh, u, v):\n    return dh * (v - 1.0) * u * (1.0 - u)\n"
    assert offered(derivative_variants, source) == [
        Offered(
            Operator.DROP_DERIVATIVE,
            "sigmoid",
            SIGMOID,
            f"{BACKWARD.strip()}\n\ndef f(dh, u, v):\n    return dh * (v - 1.0)",
        )
    ]


def test_a_tanhs_derivative_goes_however_it_is_squared() -> None:
    for square in ("a ** 2", "a * a"):
        source = BACKWARD + f"def f(dh, a):\n    return dh * (1.0 - {square})\n"
        assert offered(derivative_variants, source) == [
            Offered(
                Operator.DROP_DERIVATIVE,
                "tanh",
                TANH,
                f"{BACKWARD.strip()}\n\ndef f(dh, a):\n    return dh",
            )
        ]


def test_a_complement_without_its_gate_is_no_derivative() -> None:
    # dh * (1 - u) is the candidate's share of a mix, not u's derivative.
    assert (
        offered(derivative_variants, BACKWARD + "def f(dh, u):\n    return dh * (1.0 - u)\n") == []
    )


def test_a_product_that_is_only_the_derivative_keeps_it() -> None:
    assert offered(derivative_variants, BACKWARD + "def f(u):\n    return u * (1.0 - u)\n") == []


def test_no_derivative_is_dropped_in_a_forward_pass() -> None:
    # The same product in a reference that computes no gradient: a forward pass's own terms.
    assert offered(derivative_variants, "def f(dh, u):\n    return dh * u * (1.0 - u)\n") == []


def test_the_derivative_mutant_takes_the_place_of_the_factor_mutant() -> None:
    # GRADIENT's returned dh * (1.0 - u) * (1.0 - a * a): dropping the last factor is the tanh's
    # derivative left out, and the learner reads that rather than "one factor".
    mutants = make_mutants(BACKWARD + GRADIENT, "backward")
    dropped = [m for m in mutants if "return (dh * (1.0 - u), gate" in m.source]
    assert [(m.operator, m.meaning) for m in dropped] == [
        (Operator.DROP_DERIVATIVE, f"Your result equals the correct one {TANH}.")
    ]
