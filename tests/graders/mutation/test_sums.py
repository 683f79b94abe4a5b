"""graders/mutation/sums.py: a term left out or counted twice, the two weights of a mix
exchanged."""

from __future__ import annotations

from graders.mutation.mutants import make_mutants
from graders.mutation.operators import Operator
from graders.mutation.sums import sum_variants
from tests.graders.mutation.helpers import SLIPS, Offered, changed_lines, offered

ONE_OF_THE_TERMS = "without one of the added terms"
MIX_EXCHANGED = (
    "with the two weights of a mix exchanged: z where 1 - z belongs, and 1 - z where z belongs"
)
# A weight that is no argument is not named: it could be the reference's own variable.
UNNAMED_MIX_EXCHANGED = (
    "with the two weights of a mix exchanged: w where 1 - w belongs, and 1 - w where w belongs"
)


def test_either_term_is_left_out_and_an_added_argument_counted_twice() -> None:
    assert offered(sum_variants, "def f(x, W, b):\n    return x @ W + b\n") == [
        Offered(
            Operator.DROP_TERM,
            "right",
            "without the added term b",
            "def f(x, W, b):\n    return x @ W",
        ),
        Offered(Operator.DROP_TERM, "left", ONE_OF_THE_TERMS, "def f(x, W, b):\n    return b"),
        Offered(
            Operator.DOUBLE_TERM,
            "",
            "with the added term b counted twice",
            "def f(x, W, b):\n    return x @ W + b + b",
        ),
    ]


def test_only_an_argument_is_named_or_counted_twice() -> None:
    assert offered(sum_variants, "def f(x, b):\n    return 2 * x + 1.0\n") == [
        Offered(Operator.DROP_TERM, "right", ONE_OF_THE_TERMS, "def f(x, b):\n    return 2 * x"),
        Offered(Operator.DROP_TERM, "left", ONE_OF_THE_TERMS, "def f(x, b):\n    return 1.0"),
    ]


def test_the_two_weights_of_a_mix_are_exchanged() -> None:
    complements = [
        o
        for o in offered(sum_variants, "def f(z, h, c):\n    return z * h + (1 - z) * c\n")
        if o.operator is Operator.COMPLEMENT
    ]
    assert complements == [
        Offered(
            Operator.COMPLEMENT,
            "",
            MIX_EXCHANGED,
            "def f(z, h, c):\n    return (1.0 - z) * h + z * c",
        )
    ]


def test_a_mix_is_found_in_any_order_of_factors_and_terms() -> None:
    complements = [
        o
        for o in offered(
            sum_variants, "def f(z, h, c):\n    return (1.0 - sigmoid(z)) * c + h * sigmoid(z)\n"
        )
        if o.operator is Operator.COMPLEMENT
    ]
    assert complements == [
        Offered(
            Operator.COMPLEMENT,
            "",
            UNNAMED_MIX_EXCHANGED,
            "def f(z, h, c):\n    return sigmoid(z) * c + h * (1.0 - sigmoid(z))",
        )
    ]


def test_an_added_argument_is_counted_twice_in_and_out_of_an_activation() -> None:
    assert changed_lines(SLIPS, "step", Operator.DOUBLE_TERM) == {
        "u = sigmoid(x @ W_u.T + b_u + b_u)",
        "a = np.tanh(x @ W_a.T + h + h)",
    }
    meanings = {
        m.meaning
        for m in make_mutants(SLIPS, "step")
        if m.operator is Operator.DOUBLE_TERM and m.line == 14
    }
    assert meanings == {"Your result equals the correct one with the added term b_u counted twice."}
