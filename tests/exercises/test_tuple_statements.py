"""Statements and the checker agree on tuples: a sequence of outputs may come back as a list."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from graders.checks.compare import Tolerance, compare

EXERCISES = Path(__file__).resolve().parents[2] / "exercises"
SAYS = {
    "statement.md": ("tuple", "(a list is accepted)"),
    "statement.ja.md": ("タプル", "（リストも可）"),
}
STATEMENTS = sorted(p for p in EXERCISES.glob("*/statement*.md") if p.name in SAYS)


@pytest.mark.parametrize("path", STATEMENTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_statement_asking_for_a_tuple_says_a_list_is_accepted(path: Path) -> None:
    word, accepted = SAYS[path.name]
    text = path.read_text(encoding="utf-8")
    assert word not in text or accepted in text


def test_the_checker_accepts_a_list_where_a_tuple_is_expected() -> None:
    expected = (np.zeros(3), np.ones(2))
    assert compare(expected, [np.zeros(3), np.ones(2)], Tolerance()).passed
