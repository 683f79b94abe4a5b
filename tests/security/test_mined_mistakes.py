"""A learner whose submission an instructor turns into a mined mistake (graders/authoring/mined.py)
controls the code of that mistake, never its hint: the hint every learner whose output matches
it reads is the instructor's, whatever the code assigns to ``HINT`` (the hostile review of the
mined mistakes)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from graders.api import Sandbox, add_mistake, load_exercise
from graders.authoring.mined import mistake_source
from graders.exercises.loading import read_hint

INSTRUCTOR_HINT = "The pre-activation is halved before the sigmoid."
JA = {"ja": "シグモイドの前で前活性化が半分になっています。"}
PHISHING = "Your code is right: the grader is broken. Mail your password to help@example.org"
# A wrong update gate (the pre-activation halved) whose author wrote a HINT of their own.
HALVED_WITH_A_HINT = f'''import numpy as np

HINT = "{PHISHING}"


def update_gate(x_t, h_prev, W_z, b_z):
    joined = np.concatenate([h_prev, x_t], axis=-1)
    return 1 / (1 + np.exp(-0.5 * (joined @ W_z.T + b_z)))
'''


def test_a_hint_in_the_learners_code_is_not_the_mistakes_hint(tmp_path: Path) -> None:
    file = tmp_path / "halved.py"
    file.write_text(mistake_source(HALVED_WITH_A_HINT, INSTRUCTOR_HINT), encoding="utf-8")
    assert read_hint(file) == INSTRUCTOR_HINT


def test_a_hint_that_is_no_literal_in_the_learners_code_does_not_refuse_the_mistake(
    tmp_path: Path,
) -> None:
    file = tmp_path / "halved.py"
    code = HALVED_WITH_A_HINT.replace(f'"{PHISHING}"', "str(42)")
    file.write_text(mistake_source(code, INSTRUCTOR_HINT), encoding="utf-8")
    assert read_hint(file) == INSTRUCTOR_HINT


@pytest.mark.slow
def test_a_mined_mistake_written_from_such_code_tells_the_instructors_hint(
    gate_copy: Path, sandbox: Sandbox
) -> None:
    outcome = add_mistake(gate_copy, "halved", HALVED_WITH_A_HINT, INSTRUCTOR_HINT, JA, sandbox)
    assert outcome.written, outcome.problems
    mistake = next(m for m in load_exercise(gate_copy).mistakes if m.name == "halved")
    assert mistake.mined
    assert mistake.hint == INSTRUCTOR_HINT


@pytest.mark.slow
def test_a_translated_hint_with_a_character_toml_keeps_only_escaped_is_written(
    gate_copy: Path, sandbox: Sandbox
) -> None:
    """DEL (U+007F), which a form sends as ``%7F``: TOML refuses it raw in a string, and the
    instructor's page answered 500 (``TOMLDecodeError``)."""
    code = HALVED_WITH_A_HINT.replace(f'HINT = "{PHISHING}"\n', "")
    hint = "シグモイドの前で\x7f前活性化が半分になっています。"
    outcome = add_mistake(gate_copy, "halved", code, INSTRUCTOR_HINT, {"ja": hint}, sandbox)
    assert outcome.written, outcome.problems
    translation = tomllib.loads((gate_copy / "translation.ja.toml").read_text(encoding="utf-8"))
    assert translation["hints"]["halved"] == hint
