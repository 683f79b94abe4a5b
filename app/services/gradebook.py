"""The gradebooks as CSV: every shape writes what its page shows, from the standings
(app/services/standings), points rounded there (``format_points``).

The API's long CSV has a row per learner and exercise; the instructor's exercise gradebook a row
per learner and a column per exercise; the assignments' overall one a column per assignment;
an assignment's a column per exercise with late marks. Totals are summed before rounding, as
the pages sum them. Where a learner's work is mid-regrade, a ``regrading`` column names both
maxima (the one that graded the counted work, the current version's). The writer neutralises
text that a spreadsheet would run as a formula (CSV injection): learners choose their names.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import tzinfo

from app.services.standings.load import (
    AssignmentRow,
    ExerciseRow,
    Learner,
    OverallGradebook,
)
from app.services.standings.rules import ExerciseStanding, format_points, rounded
from graders.api import Assignment, Exercise

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
LONG_COLUMNS = (
    "user",
    "exercise",
    "best_score",
    "max_score",
    "late",
    "submissions",
    "last_submitted_at",
    "regrading",
)
LEARNER_COLUMNS = ("learner", "name", "section", "email")


@dataclass(frozen=True)
class Points:
    """A CSV cell of points, written as the pages show them (``format_points``)."""

    value: float


Cell = str | float | int | Points | None


def learner_cells(learner: Learner) -> tuple[Cell, ...]:
    return (learner.name, learner.display_name, learner.section, learner.email)


def _cell(value: Cell) -> str:
    if value is None:
        return ""
    if isinstance(value, Points):
        return format_points(value.value)
    if isinstance(value, str):
        return "'" + value if value.startswith(FORMULA_STARTS) else value
    return f"{value:g}"


def write_csv(rows: Iterable[Sequence[Cell]]) -> str:
    """CSV text; numbers as ``%g``, ``None`` as an empty cell, formulas neutralised."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)  # RFC 4180 line ends: a CR inside a cell is then quoted
    writer.writerows([_cell(value) for value in row] for row in rows)
    return buffer.getvalue()


def regrade_note(standing: ExerciseStanding) -> str | None:
    """``<exercise>: <graded max> -> <current max>`` for work mid-regrade (None otherwise)."""
    regrade = standing.regrade
    if regrade is None:
        return None
    current = "?" if regrade.current_max is None else format_points(regrade.current_max)
    return f"{standing.exercise_id}: {format_points(regrade.graded_max)} -> {current}"


def _regrading(standings: Iterable[ExerciseStanding]) -> str | None:
    return "; ".join(n for s in standings if (n := regrade_note(s)) is not None) or None


def long_csv(rows: Sequence[ExerciseRow]) -> str:
    """``user, exercise, best_score, max_score, late, submissions, last_submitted_at,
    regrading``: a row per learner and exercise they submitted, the score the schedule counts
    (late policy applied) of the maximum that graded it."""
    return write_csv(
        [
            LONG_COLUMNS,
            *(
                (
                    row.name,
                    e.exercise_id,
                    None if e.score is None else Points(e.score),
                    None if e.max_score is None else Points(e.max_score),
                    "late" if e.late else None,
                    e.attempts,
                    None if e.latest is None else e.latest.isoformat(),
                    regrade_note(e),
                )
                for row in rows
                for e in sorted(row.exercises.values(), key=lambda e: e.exercise_id)
            ),
        ]
    )


def wide_csv(
    rows: Sequence[ExerciseRow], exercises: Sequence[Exercise], maxima: Mapping[str, float | None]
) -> str:
    """``learner, name, section, email, <exercise id>…, total, regrading`` with a ``(max)``
    row of each exercise's current points (``maxima``; empty: it does not prepare); an empty
    cell: no submission."""
    column_max = [maxima.get(e.id) for e in exercises]
    return write_csv(
        [
            (*LEARNER_COLUMNS, *(e.id for e in exercises), "total", "regrading"),
            (
                "(max)",
                *(None for _ in LEARNER_COLUMNS[1:]),
                *(Points(m) if m is not None else None for m in column_max),
                Points(rounded(sum(m for m in column_max if m is not None))),
                None,
            ),
            *(
                (
                    *learner_cells(row.learner),
                    *(
                        Points(s.score)
                        if (s := row.exercises.get(e.id)) and s.score is not None
                        else None
                        for e in exercises
                    ),
                    Points(row.total),
                    _regrading(row.exercises.values()),
                )
                for row in rows
            ),
        ]
    )


def overall_csv_rows(table: OverallGradebook) -> list[tuple[Cell, ...]]:
    """``learner, name, section, email, <assignment id>…, total`` with a ``(max)`` row."""
    return [
        (*LEARNER_COLUMNS, *(a.id for a in table.assignments), "total"),
        (
            "(max)",
            *(None for _ in LEARNER_COLUMNS[1:]),
            *(Points(a.total_weight) for a in table.assignments),
            Points(table.max_score),
        ),
        *(
            (
                *learner_cells(row.learner),
                *(Points(s.score) for s in row.standings),
                Points(row.score),
            )
            for row in table.rows
        ),
    ]


def assignment_csv_rows(
    assignment: Assignment, rows: Sequence[AssignmentRow], zone: tzinfo
) -> list[tuple[Cell, ...]]:
    """``learner, name, section, email, due, <exercise id>…, <exercise id>_late…, total,
    regrading`` with a ``(max)`` row: points after the policy; due times in the schedule's zone
    as the pages show them."""
    ids = assignment.exercise_ids
    return [
        (*LEARNER_COLUMNS, "due", *ids, *(f"{i}_late" for i in ids), "total", "regrading"),
        (
            "(max)",
            *(None for _ in LEARNER_COLUMNS[1:]),
            assignment.due.astimezone(zone).isoformat(),
            *(Points(e.weight) for e in assignment.exercises),
            *(None for _ in ids),
            Points(assignment.total_weight),
            None,
        ),
        *(
            (
                *learner_cells(row.learner),
                row.standing.due.astimezone(zone).isoformat(),
                *(Points(e.points) for e in row.standing.exercises),
                *("late" if e.late else None for e in row.standing.exercises),
                Points(row.standing.score),
                _regrading(row.standing.exercises),
            )
            for row in rows
        ),
    ]
