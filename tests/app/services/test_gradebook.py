"""The gradebook CSVs: a row per learner, a column per exercise, no spreadsheet formulas."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from app.services.gradebook import (
    Best,
    GradebookRow,
    Learner,
    format_points,
    wide_csv,
    write_csv,
)
from graders.api import Exercise


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
        GradebookRow(
            Learner("ada", "Ada Lovelace", "A", "ada@example.org"),
            {"a": Best(3.0, 4.0), "b": Best(2.5, 5.0)},
        ),
        GradebookRow(Learner("bob"), {"a": Best(4.0, 4.0)}),
        GradebookRow(Learner("cy")),
    ]
    text = wide_csv(rows, [exercise("a"), exercise("b"), exercise("c")], {"a": 4.0, "c": 3.0})
    assert text.splitlines() == [
        "learner,name,section,email,a,b,c,total",
        "(max),,,,4,5,3,12",  # b: no known maximum, the learners' stands in
        "ada,Ada Lovelace,A,ada@example.org,3,2.5,,5.5",
        "bob,,,,4,,,4",
        "cy,,,,,,,0",
    ]


def test_csv_rounds_as_the_page_and_totals_before_rounding() -> None:
    third = 1 / 3
    row = GradebookRow(Learner("ada"), {e: Best(third, 1.0) for e in "abc"})
    text = wide_csv([row], [exercise(e) for e in "abc"], dict.fromkeys("abc", 1.0))
    assert text.splitlines()[2] == "ada,,,,0.33,0.33,0.33,1"
    assert [format_points(v) for v in (27.0, 2.5, 0.999, 0.005, 1234567.0, -0.001)] == [
        "27",
        "2.5",
        "1",
        "0.01",
        "1234567",
        "0",
    ]


def test_csv_neutralises_formulas_in_names() -> None:
    text = wide_csv([GradebookRow(Learner("=HYPERLINK(1)"))], [exercise("a")], {"a": 1.0})
    assert text.splitlines()[2] == "'=HYPERLINK(1),,,,,0"


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_every_formula_start_is_neutralised_in_text_cells(start: str) -> None:
    text = write_csv([(f"{start}SUM(A1)", 1.5, None, 3)])
    assert next(csv.reader(io.StringIO(text))) == [f"'{start}SUM(A1)", "1.5", "", "3"]


def test_text_that_only_contains_a_formula_sign_is_kept() -> None:
    assert write_csv([("ada=lovelace", "a-b")]) == "ada=lovelace,a-b\r\n"
