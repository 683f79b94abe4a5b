"""The gradebook CSV: a row per learner, a column per exercise, no spreadsheet formulas."""

from __future__ import annotations

from pathlib import Path

from app.web.exercises_view import Best
from app.web.gradebook import GradebookRow, gradebook_csv
from graders.exercises import Exercise


def exercise(exercise_id: str) -> Exercise:
    return Exercise(id=exercise_id, title=exercise_id, difficulty="easy", tags=(), entry="f",
                    path=Path("."), version="v")


def test_csv_is_wide_with_maxima_and_totals() -> None:
    rows = [GradebookRow("ada", {"a": Best(3.0, 4.0), "b": Best(2.5, 5.0)}),
            GradebookRow("bob", {"a": Best(4.0, 4.0)}),
            GradebookRow("cy")]
    text = gradebook_csv(rows, [exercise("a"), exercise("b")])
    assert text.splitlines() == [
        "learner,a,b,total",
        "(max),4,5,",
        "ada,3,2.5,5.5",
        "bob,4,,4",
        "cy,,,0",
    ]


def test_csv_neutralises_formulas_in_names() -> None:
    text = gradebook_csv([GradebookRow("=HYPERLINK(1)")], [exercise("a")])
    assert text.splitlines()[2] == "'=HYPERLINK(1),,0"
