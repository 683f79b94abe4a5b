"""The gradebook CSVs: a row per learner, a column per exercise, no spreadsheet formulas."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime
from pathlib import Path

import pytest

from app.services.gradebook import wide_csv, write_csv
from app.services.standings.load import ExerciseRow, Learner
from app.services.standings.rules import (
    CurrentVersion,
    Deadline,
    ExerciseStanding,
    exercise_standing,
)
from app.store.submissions import GradedAttempt
from graders.api import Exercise

AT = datetime(2026, 12, 1, tzinfo=UTC)


def best(
    exercise_id: str, score: float, max_score: float, current: CurrentVersion | None = None
) -> ExerciseStanding:
    """A practice standing from one graded attempt (version "v")."""
    attempt = GradedAttempt(1, "ada", exercise_id, score, max_score, AT, "s", "v")
    return exercise_standing(exercise_id, exercise_id, [attempt], Deadline(), current)


def row(learner: Learner, *standings: ExerciseStanding) -> ExerciseRow:
    return ExerciseRow(learner, {s.exercise_id: s for s in standings})


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
        row(
            Learner("ada", "Ada Lovelace", "A", "ada@example.org"),
            best("a", 3, 4),
            best("b", 2.5, 5),
        ),
        row(Learner("bob"), best("a", 4, 4)),
        row(Learner("cy")),
    ]
    text = wide_csv(rows, [exercise("a"), exercise("b"), exercise("c")], {"a": 4.0, "c": 3.0})
    assert text.splitlines() == [
        "learner,name,section,email,a,b,c,total,regrading",
        "(max),,,,4,,3,7,",  # b does not prepare: no maximum is made up
        "ada,Ada Lovelace,A,ada@example.org,3,2.5,,5.5,",
        "bob,,,,4,,,4,",
        "cy,,,,,,,0,",
    ]


def test_csv_names_both_maxima_mid_regrade() -> None:
    """Issue 39: the page said 26/26 while the CSV's (max) row said 29."""
    mid = best("a", 26, 26, CurrentVersion("w", 29.0))
    text = wide_csv([row(Learner("ada"), mid)], [exercise("a")], {"a": 29.0})
    assert text.splitlines()[1:] == ["(max),,,,29,29,", "ada,,,,26,26,a: 26 -> 29"]


def test_csv_rounds_as_the_page_and_totals_before_rounding() -> None:
    third = 1 / 3
    thirds = row(Learner("ada"), *(best(e, third, 1.0) for e in "abc"))
    text = wide_csv([thirds], [exercise(e) for e in "abc"], dict.fromkeys("abc", 1.0))
    assert text.splitlines()[2] == "ada,,,,0.33,0.33,0.33,1,"


def test_csv_neutralises_formulas_in_names() -> None:
    text = wide_csv([row(Learner("=HYPERLINK(1)"))], [exercise("a")], {"a": 1.0})
    assert text.splitlines()[2] == "'=HYPERLINK(1),,,,,0,"


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_every_formula_start_is_neutralised_in_text_cells(start: str) -> None:
    text = write_csv([(f"{start}SUM(A1)", 1.5, None, 3)])
    assert next(csv.reader(io.StringIO(text))) == [f"'{start}SUM(A1)", "1.5", "", "3"]


def test_text_that_only_contains_a_formula_sign_is_kept() -> None:
    assert write_csv([("ada=lovelace", "a-b")]) == "ada=lovelace,a-b\r\n"
