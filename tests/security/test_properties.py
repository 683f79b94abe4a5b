"""A property case's check whose message would carry learner text: the learner returns its
hidden inputs as text, and the check quotes the output it judged. A hidden test names the
check and its category only; the public test, where nothing is secret, shows the message."""

from __future__ import annotations

from pathlib import Path

import pytest

from graders.api import Failure, PreparedExercise, Sandbox, Status, Visibility, grade
from graders.checks.hidden import hidden_message, leak_bound_bits, outcome_count
from tests.security.vault import CASES, EXERCISE, leaked, make_vault, needles, prepared_vault

CHECKS = """

def is_the_gate(inputs, got):
    # Quotes what it judged: the learner's output, and so whatever the learner put in it.
    if not np.allclose(np.asarray(got, dtype=float), np.tanh(inputs["x"] * inputs["w"])):
        return f"expected tanh(x * w), got {got!r} for x = {inputs['x']!r}"
    return None


def is_an_array(inputs, got):
    return None if isinstance(got, np.ndarray) else f"got {type(got).__name__}: {str(got)}"


CHECKS = [is_the_gate, is_an_array]
"""
CHECKED_CASES = (
    CASES.replace(
        "from graders.cases import case", "from graders.cases import property_case" + CHECKS
    )
    .replace("@case(public=True)", "@property_case(public=True, checks=CHECKS)")
    .replace('@case(points=2, batch_axes={"x": 0})', "@property_case(points=2, checks=CHECKS)")
    .replace("@case(points=2)", "@property_case(points=2, checks=CHECKS)")
)
# The hidden inputs, written into the output as text: in a string and in a list of strings.
ECHO = """
import numpy as np

def gate(x, w):
    return [repr(x.tolist()), f"{w.tolist()}"]
"""


@pytest.fixture(scope="module")
def vault(tmp_path_factory: pytest.TempPathFactory) -> PreparedExercise:
    root = make_vault(tmp_path_factory.mktemp("catalog"))
    cases = CHECKED_CASES.lstrip()
    assert "def is_the_gate" in cases and "@case" not in cases
    (Path(root) / EXERCISE / "cases.py").write_text(cases, encoding="utf-8")
    return prepared_vault(root)


def test_a_check_quoting_learner_text_leaks_nothing_of_a_hidden_case(
    vault: PreparedExercise, sandbox: Sandbox
) -> None:
    report = grade(vault, ECHO, sandbox)
    hidden = [test for test in report.tests if test.visibility is Visibility.HIDDEN]
    assert len(hidden) == 3
    failed = ("is the gate", "is an array")
    for test in hidden:
        assert (test.status, test.failure) == (Status.FAILED, Failure.PROPERTY)
        assert test.message == hidden_message(Failure.PROPERTY, failed)
        assert test.message == (
            "property: the output fails the checks 'is the gate' and 'is an array' "
            "(details are not shown for hidden tests)"
        )
    text = " ".join([report.message, report.output, *(test.message for test in report.tests)])
    assert not leaked(text, needles(vault, public=False))
    # The control: on the public case the same checks show what they say, the inputs too.
    (public,) = [test for test in report.tests if test.visibility is Visibility.PUBLIC]
    assert public.message.startswith("check 'is the gate': could not be evaluated"), public
    assert leaked(public.message, needles(vault, public=True))


def test_the_bound_counts_every_set_of_failing_checks(vault: PreparedExercise) -> None:
    hints = [candidate.hint for candidate in vault.candidates.values()]
    checks = ("is the gate", "is an array")
    # Passed, every other category, and property with each of the three non-empty sets.
    assert outcome_count(checks) == len(Failure) + 3
    assert leak_bound_bits(hints, checks) > leak_bound_bits(hints)
    # The numbers docs/security.md states: no known mistake (the checks' five fixed hints).
    assert round(leak_bound_bits([]), 2) == 6.58
    assert round(leak_bound_bits([], checks), 2) == 6.75
