"""graders/mutation/arguments.py: one argument used for another of its kind, two exchanged
throughout, the first two arguments of a call exchanged."""

from __future__ import annotations

from graders.mutation.arguments import argument_variants
from graders.mutation.mutants import make_mutants
from graders.mutation.operators import Operator
from tests.graders.mutation.helpers import GRADIENT, SLIPS, Offered, changed_lines, offered

CALL_ORDER = "with the first two arguments of a call exchanged"


def test_arguments_of_one_kind_are_exchanged_or_one_used_for_the_other() -> None:
    # W_z and W_r are of one kind (the name before the first underscore); x and b are of none.
    assert offered(argument_variants, "def f(x, W_z, W_r, b):\n    return x @ W_z + W_r\n") == [
        Offered(
            Operator.EXCHANGE_PARAMETERS,
            "W_z:W_r",
            "with the parameters W_z and W_r exchanged (each used where the other belongs)",
            "def f(x, W_z, W_r, b):\n    return x @ W_r + W_z",
        ),
        # (a walk of the tree meets the outer sum's W_r before the inner product's W_z)
        Offered(
            Operator.REPLACE_PARAMETER,
            "W_z",
            "with W_z used in one place where W_r belongs",
            "def f(x, W_z, W_r, b):\n    return x @ W_z + W_z",
        ),
        Offered(
            Operator.REPLACE_PARAMETER,
            "W_r",
            "with W_r used in one place where W_z belongs",
            "def f(x, W_z, W_r, b):\n    return x @ W_r + W_r",
        ),
    ]


def test_a_calls_arguments_are_exchanged_when_their_order_matters() -> None:
    # The reference's own functions and numpy's ordered calls; not a call of two equal
    # arguments, nor one whose order does not matter (np.add).
    prefix = "def g(a, b):\n    ...\n\ndef f(x, h):\n    return "
    source = prefix + "g(x, h) + np.dot(h, x) + np.dot(x, x) + np.add(x, h)\n"
    assert offered(argument_variants, source) == [
        Offered(
            Operator.SWAP_ARGUMENTS,
            "",
            CALL_ORDER,
            prefix + "g(h, x) + np.dot(h, x) + np.dot(x, x) + np.add(x, h)",
        ),
        Offered(
            Operator.SWAP_ARGUMENTS,
            "",
            CALL_ORDER,
            prefix + "g(x, h) + np.dot(x, h) + np.dot(x, x) + np.add(x, h)",
        ),
    ]


def test_only_parameters_of_one_kind_are_exchanged() -> None:
    exchanged = [
        m for m in make_mutants(GRADIENT, "backward") if m.operator is Operator.EXCHANGE_PARAMETERS
    ]
    assert {m.key.split(":", 3)[3] for m in exchanged} == {"W_ux:W_ax", "b_u:b_a"}
    weights = next(m for m in exchanged if m.key.endswith("W_ux:W_ax"))
    assert "gate = x @ W_ax.T + b_u" in weights.source
    assert "candidate = x @ W_ux.T + b_a" in weights.source
    assert "def backward(h, y, a, u, W_ux, W_ax, b_u, b_a, x):" in weights.source
    assert weights.meaning == (
        "Your result equals the correct one with the parameters W_ux "
        "and W_ax exchanged (each used where the other belongs)."
    )


def test_copy_paste_slips_and_argument_order() -> None:
    assert changed_lines(SLIPS, "step", Operator.REPLACE_PARAMETER) == {
        "u = sigmoid(x @ W_a.T + b_u)",
        "a = np.tanh(x @ W_u.T + h)",
    }  # only one kind
    swapped = changed_lines(SLIPS, "step", Operator.SWAP_ARGUMENTS)
    # the reference's own helper and numpy calls whose arguments have roles
    assert len(swapped) == 2
    assert any("pair(x, u)" in line for line in swapped)
    assert any("np.dot(x, h)" in line for line in swapped)


def test_an_arguments_complement_is_made_the_argument_itself() -> None:
    source = "def f(x, p):\n    return x / (1 - p) + (1 - x) + (2 - p)\n"
    complements = [
        o
        for o in offered(argument_variants, source)
        if o.operator is Operator.ARGUMENT_FOR_COMPLEMENT
    ]
    # 1 - x is no probability's complement only by its name: every argument's is offered, but
    # only 1 minus an argument (not 2 - p, nor 1 minus an expression).
    assert [(o.meaning, o.code) for o in complements] == [
        (
            "with x used in one place where 1 - x belongs (a probability or a rate taken for "
            "its complement)",
            "def f(x, p):\n    return x / (1 - p) + x + (2 - p)",
        ),
        (
            "with p used in one place where 1 - p belongs (a probability or a rate taken for "
            "its complement)",
            "def f(x, p):\n    return x / p + (1 - x) + (2 - p)",
        ),
    ]
