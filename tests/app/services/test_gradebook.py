"""The gradebook CSVs: a row per learner, a column per exercise, no spreadsheet formulas."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from app.services.gradebook import Best, GradebookRow, wide_csv, write_csv
from graders import Exercise


def exercise(exercise_id: str) -> Exercise:
    return Exercise(
        id=exercise_id,
        title=exercise_id,
        difficulty="easy",
        tags=(),
        entry="f",
        path=Path("."),
        version="v",
    )


def test_csv_is_wide_with_maxima_and_totals() -> None:
    rows = [
        GradebookRow("ada", {"a": Best(3.0, 4.0), "b": Best(2.5, 5.0)}),
        GradebookRow("bob", {"a": Best(4.0, 4.0)}),
        GradebookRow("cy"),
    ]
    text = wide_csv(rows, [exercise("a"), exercise("b")])
    assert text.splitlines() == [
        "learner,a,b,total",
        "(max),4,5,",
        "ada,3,2.5,5.5",
        "bob,4,,4",
        "cy,,,0",
    ]


def test_csv_neutralises_formulas_in_names() -> None:
    text = wide_csv([GradebookRow("=HYPERLINK(1)")], [exercise("a")])
    assert text.splitlines()[2] == "'=HYPERLINK(1),,0"


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_every_formula_start_is_neutralised_in_text_cells(start: str) -> None:
    text = write_csv([(f"{start}SUM(A1)", 1.5, None, 3)])
    assert next(csv.reader(io.StringIO(text))) == [f"'{start}SUM(A1)", "1.5", "", "3"]


def test_text_that_only_contains_a_formula_sign_is_kept() -> None:
    assert write_csv([("ada=lovelace", "a-b")]) == "ada=lovelace,a-b\r\n"
