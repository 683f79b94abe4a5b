"""A submission that returns hostile containers (a dict subclass with tricks, keys whose
``__eq__`` lies, the inputs as keys and type names): the trusted side reads only what the wire
decodes, plain values it built itself, and a hidden test shows only its category."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from graders.api import Failure, PreparedExercise, Sandbox, grade
from graders.checks.hidden import hidden_message
from graders.grading.plan import planned
from graders.values import Foreign
from tests.security.attacks import ATTACKS
from tests.security.vault import leaked, make_vault, needles, prepared_vault

ATTACK = next(a for a in ATTACKS if a.name.startswith("dicts and containers"))
PLAIN = (np.ndarray, np.generic, Foreign, str, int, float, bool, complex, type(None))


@pytest.fixture(scope="module")
def vault(tmp_path_factory: pytest.TempPathFactory) -> PreparedExercise:
    return prepared_vault(make_vault(tmp_path_factory.mktemp("catalog")))


def plain(value: Any) -> bool:
    """Whether ``value`` is built only of exact types the wire decodes to."""
    if type(value) in (tuple, list):
        return all(plain(item) for item in value)
    if type(value) is dict:
        return all(type(key) is str for key in value) and all(plain(v) for v in value.values())
    return type(value) in PLAIN or type(value) is np.ndarray


def test_the_trusted_side_sees_only_decoded_values(
    vault: PreparedExercise, sandbox: Sandbox
) -> None:
    tasks, _plans = planned(vault, False)
    run = sandbox.run(ATTACK.code, "gate", tasks)
    values = [outcome.value for outcome in run.outcomes.values() if outcome.ok]
    assert values, run.message
    assert all(plain(value) for value in values)
    kinds = {type(value) for value in values}
    assert {dict, Foreign} <= kinds, kinds  # the plain dicts crossed, the subclass did not


def test_hidden_tests_show_only_a_category(vault: PreparedExercise, sandbox: Sandbox) -> None:
    report = grade(vault, ATTACK.code, sandbox)
    hidden = [test for test in report.tests if test.visibility.value == "hidden"]
    assert {test.failure for test in hidden} <= {Failure.WRONG_TYPE}
    assert all(test.message == hidden_message(Failure.WRONG_TYPE) for test in hidden)
    text = " ".join([report.message, report.output or "", *(test.message for test in report.tests)])
    assert not leaked(text, needles(vault, public=False))
