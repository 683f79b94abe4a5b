"""graders/mutation/concatenations.py: the two parts of a concatenation exchanged."""

from __future__ import annotations

from graders.mutation.concatenations import concatenation_variants
from graders.mutation.operators import Operator
from tests.graders.mutation.helpers import Offered, offered

SWAPPED = "with the two concatenated vectors in the opposite order"


def test_two_concatenated_parts_are_exchanged() -> None:
    assert offered(
        concatenation_variants,
        """
        def f(h, x):
            return np.concatenate([h, x], axis=-1)
    """,
    ) == [
        Offered(
            Operator.SWAP_CONCAT,
            "",
            SWAPPED,
            "def f(h, x):\n    return np.concatenate([x, h], axis=-1)",
        )
    ]


def test_only_a_concatenation_of_two_literal_parts() -> None:
    # hstack of a tuple counts; three parts, or one array of parts, have no single exchange.
    assert offered(
        concatenation_variants,
        """
        def f(h, x, y):
            return np.hstack((h, x)) + np.vstack([h, x, y]) + np.concatenate(h)
    """,
    ) == [
        Offered(
            Operator.SWAP_CONCAT,
            "",
            SWAPPED,
            "def f(h, x, y):\n    return "
            "np.hstack((x, h)) + np.vstack([h, x, y]) + np.concatenate(h)",
        )
    ]
