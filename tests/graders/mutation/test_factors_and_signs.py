"""graders/mutation/factors_and_signs.py: a product's factor left out, a difference or a sign
turned around."""

from __future__ import annotations

from graders.mutation.factors_and_signs import factor_and_sign_variants
from graders.mutation.operators import Operator
from tests.graders.mutation.helpers import GRADIENT, Offered, changed_lines, offered

ONE_FACTOR = "without one factor of a product"
SIDES_EXCHANGED = "with the two sides of a difference exchanged (b - a where a - b belongs)"
ADDITION = "with the sign of one term flipped (an addition where a subtraction belongs)"


def test_either_factor_of_each_product_is_left_out() -> None:
    assert offered(factor_and_sign_variants, "def f(u, dh):\n    return dh * (1.0 - u) * u\n") == [
        Offered(
            Operator.DROP_FACTOR,
            "right",
            "without the factor u",
            "def f(u, dh):\n    return dh * (1.0 - u)",
        ),
        Offered(Operator.DROP_FACTOR, "left", ONE_FACTOR, "def f(u, dh):\n    return u"),
        Offered(Operator.DROP_FACTOR, "right", ONE_FACTOR, "def f(u, dh):\n    return dh * u"),
        Offered(
            Operator.DROP_FACTOR,
            "left",
            "without the factor dh",
            "def f(u, dh):\n    return (1.0 - u) * u",
        ),
    ]


def test_a_difference_is_exchanged_or_made_a_sum() -> None:
    assert offered(factor_and_sign_variants, "def f(h, y):\n    return h - y\n") == [
        Offered(Operator.SWAP_DIFFERENCE, "", SIDES_EXCHANGED, "def f(h, y):\n    return y - h"),
        Offered(Operator.FLIP_SIGN, "", ADDITION, "def f(h, y):\n    return h + y"),
    ]


def test_a_complement_is_no_difference_to_turn_around() -> None:
    # 1 - g belongs to the sum family's exchange of a mix's weights.
    assert offered(factor_and_sign_variants, "def f(g):\n    return 1.0 - g\n") == []


def test_a_minus_sign_is_dropped_but_not_a_negative_number() -> None:
    assert offered(factor_and_sign_variants, "def f(a):\n    return -a + -1\n") == [
        Offered(
            Operator.FLIP_SIGN,
            "",
            "with the sign of one term flipped",
            "def f(a):\n    return a + -1",
        )
    ]


def test_a_gradients_factor_is_dropped_and_its_difference_exchanged() -> None:
    assert {
        line
        for line in changed_lines(GRADIENT, "backward", Operator.DROP_FACTOR)
        if line.startswith("return")
    } >= {"return (dh * (1.0 - a * a), gate, candidate)"}
    # The tanh's derivative left out is that family's mutant, which the learner reads as such.
    assert changed_lines(GRADIENT, "backward", Operator.DROP_DERIVATIVE) == {
        "return (dh * (1.0 - u), gate, candidate)"
    }
    assert changed_lines(GRADIENT, "backward", Operator.SWAP_DIFFERENCE) == {"dh = y - h"}


BACKWARD = '"""The gradient of the loss."""\n'
HEADER = BACKWARD.strip() + "\n\n"


def test_a_gradients_terms_get_a_sign_flipped_a_count_dropped_and_a_difference_doubled() -> None:
    source = BACKWARD + "def f(p, y, n):\n    return (p - y) / n + p\n"
    gradient_offers = [
        o
        for o in offered(factor_and_sign_variants, source)
        if o.operator in (Operator.DROP_DIVISOR, Operator.DOUBLE_DIFFERENCE)
        or o.meaning.startswith("with the sign of one term flipped (a subtraction")
    ]
    assert gradient_offers == [
        Offered(
            Operator.FLIP_SIGN,
            "",
            "with the sign of one term flipped (a subtraction where an addition belongs)",
            HEADER + "def f(p, y, n):\n    return (p - y) / n - p",
        ),
        Offered(
            Operator.DROP_DIVISOR,
            "",
            "without a division by a count (a factor 1/N off: a sum where a mean belongs)",
            HEADER + "def f(p, y, n):\n    return p - y + p",
        ),
        Offered(
            Operator.DOUBLE_DIFFERENCE,
            "",
            "with a difference doubled (a factor 2 off, as when a square's derivative keeps "
            "the 2 that the loss's factor 1/2 cancels)",
            HEADER + "def f(p, y, n):\n    return 2.0 * (p - y) / n + p",
        ),
    ]


def test_a_division_by_a_number_and_a_complement_are_left_alone() -> None:
    source = BACKWARD + "def f(p, u):\n    return p / 2.0 * (1.0 - u)\n"
    assert not {o.operator for o in offered(factor_and_sign_variants, source)} & {
        Operator.DROP_DIVISOR,
        Operator.DOUBLE_DIFFERENCE,
    }


def test_a_forward_pass_gets_no_gradient_variant() -> None:
    # Only the difference's own variants: no sum made a difference, no count or 2 involved.
    offers = offered(factor_and_sign_variants, "def f(p, y, n):\n    return (p - y) / n + p\n")
    assert [(o.operator, o.code) for o in offers] == [
        (Operator.SWAP_DIFFERENCE, "def f(p, y, n):\n    return (y - p) / n + p"),
        (Operator.FLIP_SIGN, "def f(p, y, n):\n    return (p + y) / n + p"),
    ]
