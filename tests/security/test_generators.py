"""A Generator input used as a side channel: during a hidden call the learner writes the hidden
inputs into the generator's state (draws counted by the input's digits) and returns the
generator itself with them. Only the trusted side reads a returned generator, and a hidden
test shows its category alone, so nothing of the hidden inputs reaches the learner."""

from __future__ import annotations

import numpy as np
import pytest

from graders import ExerciseCatalog, Failure, PreparedExercise, Sandbox, Visibility, grade
from graders.checks.hidden import hidden_message
from tests.graders.typed_exercises import make_dropout
from tests.security.vault import leaked

SIDE_CHANNEL = """
import numpy as np


def dropout(x, p, rng):
    digits = [int(d) for d in f"{abs(float(np.ravel(x)[0])):.6f}" if d.isdigit()]
    for digit in digits:  # the state now spells the input's first value
        rng.random(digit + 1)
    print("drew", len(digits), "times")
    return rng, digits, repr(x.tolist())
"""


@pytest.fixture(scope="module")
def dropout(tmp_path_factory: pytest.TempPathFactory) -> PreparedExercise:
    root = tmp_path_factory.mktemp("catalog")
    make_dropout(root)
    return ExerciseCatalog(root).prepared("dropout")


def hidden_needles(prepared: PreparedExercise) -> frozenset[str]:
    found: set[str] = set()
    for case in prepared.cases:
        if not case.spec.public:
            for number in np.ravel(case.inputs["x"]):
                digits = f"{abs(float(number)):.10e}".replace(".", "")[:10]
                found.update(digits[i : i + 4] for i in range(len(digits) - 3))
    return frozenset(found)


def test_a_generator_carries_nothing_of_a_hidden_case_out(
    dropout: PreparedExercise, sandbox: Sandbox
) -> None:
    report = grade(dropout, SIDE_CHANNEL, sandbox)
    hidden = [t for t in report.tests if t.visibility is Visibility.HIDDEN]
    assert hidden and all(t.failure is Failure.WRONG_TYPE for t in hidden), hidden
    assert all(t.message == hidden_message(Failure.WRONG_TYPE) for t in hidden)
    public = [t for t in report.tests if t.visibility is Visibility.PUBLIC]
    assert public and "drew" in (report.output or "")  # the public case ran and printed
    text = " ".join([report.message, report.output or "", *(t.message for t in report.tests)])
    assert not leaked(text, hidden_needles(dropout))
