"""The starter in each language of the statement: ``starter.<lang>.py`` is read beside
``starter.py``, served to a reader of that language, and validate refuses one that is missing
or is other code than the English starter (only comments and docstrings may differ)."""

from __future__ import annotations

from pathlib import Path

from graders.api import load_exercise
from graders.exercises import translation_problems
from tests.graders.helpers import edit

CASES = ("numerical example",)


def starter_problems(folder: Path) -> list[str]:
    problems = translation_problems(load_exercise(folder), CASES)
    return [p for p in problems if p.startswith("starter.")]


def test_a_reader_of_japanese_gets_the_japanese_starter(gate_copy: Path) -> None:
    exercise = load_exercise(gate_copy)
    assert "GRU の更新ゲート" in exercise.starter_in("ja")
    assert "Return the GRU update gate" in exercise.starter_in("en")
    assert exercise.starter_in("fr") == exercise.starter
    assert starter_problems(gate_copy) == []


def test_a_language_of_the_statement_needs_its_starter(gate_copy: Path) -> None:
    (gate_copy / "starter.ja.py").unlink()
    assert starter_problems(gate_copy) == [
        "starter.ja.py: missing; statement.ja.md gives the exercise this language, so the "
        "starter's comments and docstrings need it too"
    ]


def test_a_starter_whose_code_differs_is_refused(gate_copy: Path) -> None:
    edit(gate_copy / "starter.ja.py", "np.zeros(np.shape(h_prev))", "np.ones(np.shape(h_prev))")
    assert starter_problems(gate_copy) == [
        "starter.ja.py: not the code of starter.py; only comments and docstrings may differ"
    ]


def test_comments_and_docstrings_may_differ(gate_copy: Path) -> None:
    edit(gate_copy / "starter.ja.py", "# ここを書く", "# 別の言葉")
    edit(gate_copy / "starter.ja.py", "GRU の更新ゲート", "更新ゲート")
    assert starter_problems(gate_copy) == []


def test_a_starter_without_its_statement_is_stale(gate_copy: Path) -> None:
    (gate_copy / "starter.fr.py").write_text((gate_copy / "starter.py").read_text())
    assert starter_problems(gate_copy) == [
        "starter.fr.py: there is no statement.fr.md; remove it or add one"
    ]
