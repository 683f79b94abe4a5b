"""A Generator input used as a side channel: during a hidden call the learner writes the hidden
inputs into the generator's state (draws counted by the input's digits) and returns the
generator itself with them. Only the trusted side reads a returned generator, and a hidden
test shows its category alone, so nothing of the hidden inputs reaches the learner.

And a Generator input's contract: the call must leave it where the reference's draws leave it
(graders/grading/grade.py ``further_checks``), which the sandbox reports after each call: a
copy drawn from, or a draw too many, fails the case, on a hidden one with its category alone
(docs/security.md, "generators")."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from graders.api import (
    ExerciseCatalog,
    Failure,
    PreparedExercise,
    Sandbox,
    Status,
    Verdict,
    Visibility,
    grade,
)
from graders.checks.diagnosis import CHECK_HINTS
from graders.checks.hidden import hidden_message
from graders.results import InputKind
from tests.graders.helpers import EXERCISES
from tests.graders.scenario_exercises import make_scenario_folder
from tests.graders.typed_exercises import DROPOUT_SOLUTION, make_dropout
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


COPIED = """
import copy


def dropout(x, p, rng):
    keep = copy.deepcopy(rng).random(x.shape) >= p
    return x * keep / (1 - p)
"""
EXTRA_DRAW = """
def dropout(x, p, rng):
    keep = rng.random(x.shape) >= p
    rng.random()  # one draw the statement does not ask for
    return x * keep / (1 - p)
"""
RETURNS = "return x * keep / (1 - p), keep"  # exercises/dropout returns the mask too
LEFT_ELSEWHERE = (
    "inputs: the generator 'rng' is not where the statement's draws leave it: draw from the "
    "generator itself (a copy leaves the caller's generator where it was), exactly the "
    "numbers the statement asks for"
)


@pytest.mark.slow
@pytest.mark.parametrize("code", [COPIED, EXTRA_DRAW], ids=["deepcopy", "extra-draw"])
def test_a_generator_left_elsewhere_than_the_statements_draws_fails(
    dropout: PreparedExercise, sandbox: Sandbox, code: str
) -> None:
    report = grade(dropout, code, sandbox)
    assert report.verdict is Verdict.FAILED
    public = [t for t in report.tests if t.visibility is Visibility.PUBLIC]
    hidden = [t for t in report.tests if t.visibility is Visibility.HIDDEN]
    assert public and hidden
    assert all(
        (t.status, t.failure, t.message) == (Status.FAILED, Failure.CHANGED_INPUT, LEFT_ELSEWHERE)
        for t in public
    ), public
    assert all(
        (t.failure, t.message)
        == (
            Failure.CHANGED_INPUT,
            hidden_message(Failure.CHANGED_INPUT, input_kinds={InputKind.GENERATOR}),
        )
        for t in hidden
    ), hidden
    assert all(report.hidden_messages[t.name] == LEFT_ELSEWHERE for t in hidden)


@pytest.mark.slow
def test_the_reference_leaves_the_generator_where_it_should(
    dropout: PreparedExercise, sandbox: Sandbox
) -> None:
    report = grade(dropout, DROPOUT_SOLUTION, sandbox)
    assert report.verdict is Verdict.PASSED, report.tests


@pytest.mark.slow
def test_the_exercises_dropout_names_a_copied_generator_and_not_an_extra_draw(
    sandbox: Sandbox,
) -> None:
    # A known mistake is matched on where it left the generator: the copy's hint; an extra draw
    # is no known mistake, and gets the fixed hint of the inputs check.
    prepared = ExerciseCatalog(EXERCISES).prepared("dropout")
    mistake = next(m for m in prepared.exercise.mistakes if m.name == "copied_generator")
    copied = grade(prepared, mistake.path.read_text(encoding="utf-8"), sandbox)
    assert copied.diagnosis is not None and copied.diagnosis.hint == mistake.hint
    extra = grade(prepared, EXTRA_DRAW.replace("return x * keep / (1 - p)", RETURNS), sandbox)
    assert {t.failure for t in extra.tests} == {Failure.CHANGED_INPUT}
    assert extra.diagnosis is not None
    assert extra.diagnosis.hint == CHECK_HINTS[Failure.CHANGED_INPUT]


LAYER = """
import numpy as np


class Dropout:
    def __init__(self, p, rng):
        self.p, self.rng = p, rng

    def forward(self, x):
        return x * (self.rng.random(x.shape) >= self.p) / (1 - self.p)
"""
COPIED_IN_INIT = "self.p, self.rng = p, __import__('copy').deepcopy(rng)"
LAYER_CASES = """
import numpy as np

from graders.scenarios import construct, method, scenario


@scenario(public=True)
def two_steps(rng):
    return [
        construct("Dropout", "layer", p=0.5, rng=np.random.default_rng(3)),
        method("layer", "forward", x=rng.normal(size=(3, 4)), returns="first"),
        method("layer", "forward", x=rng.normal(size=(3, 4)), returns="second"),
    ]
"""


@pytest.mark.slow
def test_a_scenario_compares_where_its_steps_left_a_generator(
    tmp_path: Path, sandbox: Sandbox
) -> None:
    # A layer that keeps a copy of the caller's generator draws the reference's numbers, but
    # leaves the caller's generator where it was: compared after the last step, named by the
    # step that passed it.
    make_scenario_folder(tmp_path, "dropout-layer", ["Dropout"], LAYER, LAYER_CASES, {}, "", {})
    prepared = ExerciseCatalog(tmp_path).prepared("dropout-layer")
    assert grade(prepared, LAYER, sandbox).verdict is Verdict.PASSED
    copying = LAYER.replace("self.p, self.rng = p, rng", COPIED_IN_INIT)
    (test,) = grade(prepared, copying, sandbox).tests
    assert (test.failure, test.message) == (
        Failure.CHANGED_INPUT,
        LEFT_ELSEWHERE.replace("'rng'", "'layer = Dropout(...): rng'"),
    )
