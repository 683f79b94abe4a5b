"""Partial credit inside a case: a check declared with ``worth(share, check)`` costs only that
share of the case's points (docs/authoring.md, "Partial credit inside a case")."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from graders.api import Failure, Sandbox, Status, Verdict, grade, load_exercise, prepare_exercise
from graders.cases import Worth, points_kept, worth
from tests.graders.helpers import make_tiny_exercise

CASES = """
import numpy as np
from graders.cases import case, worth


def an_int(inputs, got):
    return None if type(got) is int else f"expected a Python int, got {type(got).__name__}"


def not_negative(inputs, got):
    return None if got >= 0 else "a count is never negative"


@case(public=True, points=2, checks=[worth(0.5, an_int)])
def example(rng):
    return {"x": np.array([1.0, 2.0, 3.0]), "threshold": 1.5}


@case(points=4, checks=[worth(0.25, an_int), not_negative])
def hidden_example(rng):
    return {"x": np.array([4.0, -2.0, 3.0]), "threshold": 0.0}
"""

# The right count as a numpy integer, not the int the statement asks for.
NUMPY_INT = (
    "import numpy as np\n\n\ndef count_above(x, threshold):\n    return np.sum(x > threshold)\n"
)


def test_a_check_worth_a_share_costs_only_that_share(tmp_path: Path, sandbox: Sandbox) -> None:
    prepared = prepare_exercise(load_exercise(make_tiny_exercise(tmp_path, cases=CASES)))
    report = grade(prepared, NUMPY_INT, sandbox)
    assert report.verdict is Verdict.FAILED
    assert [(t.status, t.failure, t.points, t.max_points) for t in report.tests] == [
        (Status.FAILED, Failure.PROPERTY, 1.0, 2.0),
        (Status.FAILED, Failure.PROPERTY, 3.0, 4.0),
    ]
    assert report.tests[0].message == "check 'an int': expected a Python int, got int64"
    assert (report.score, report.max_score) == (4.0, 6.0)


def test_points_kept_add_the_shares_of_every_failed_check() -> None:
    def first(inputs: object, got: object) -> None:
        return None

    def second(inputs: object, got: object) -> None:
        return None

    checks = [worth(0.25, first), worth(0.5, second)]
    assert points_kept(checks, ("first",), 4.0) == 3.0
    assert points_kept(checks, ("first", "second"), 4.0) == 1.0
    assert points_kept([first, worth(0.5, second)], ("first",), 4.0) == 0.0
    assert isinstance(checks[0], Worth) and checks[0].__name__ == "first"
    assert checks[0]({}, np.zeros(1)) is None


@pytest.mark.parametrize("share", [0.0, 1.0, -0.5, 2.0])
def test_a_share_is_a_fraction(share: float) -> None:
    with pytest.raises(ValueError, match="a check's share of the points is in"):
        worth(share, lambda inputs, got: None)
