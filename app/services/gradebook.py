"""The gradebook: each learner's best graded score per exercise, as rows and as CSV.

Two CSV shapes share one writer: the API's long one (a row per learner and exercise) and the
instructor page's wide one (a row per learner, a column per exercise). The writer neutralises
text that a spreadsheet would run as a formula (CSV injection): learners choose their names.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from sqlalchemy.orm import Session

from app.models import Role
from app.store import accounts as account_store
from app.store import submissions as submission_store
from graders import Exercise

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
LONG_COLUMNS = ("user", "exercise", "best_score", "max_score", "submissions", "last_submitted_at")

Cell = str | float | int | None


@dataclass(frozen=True)
class Best:
    score: float
    max_score: float


@dataclass
class GradebookRow:
    name: str
    best: dict[str, Best] = field(default_factory=dict)

    @property
    def total(self) -> float:
        return round(sum(b.score for b in self.best.values()), 6)


def _cell(value: Cell) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return "'" + value if value.startswith(FORMULA_STARTS) else value
    return f"{value:g}"


def write_csv(rows: Iterable[Sequence[Cell]]) -> str:
    """CSV text; numbers as ``%g``, ``None`` as an empty cell, formulas neutralised."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)  # RFC 4180 line ends: a CR inside a cell is then quoted
    writer.writerows([_cell(value) for value in row] for row in rows)
    return buffer.getvalue()


def best_by_exercise(*, session: Session, user_id: int) -> dict[str, Best]:
    """One learner's best graded score per exercise."""
    return {
        b.exercise_id: Best(b.best_score, b.max_score)
        for b in submission_store.best_scores(session=session, user_id=user_id)
    }


def gradebook_rows(*, session: Session, section: str | None = None) -> list[GradebookRow]:
    """One row per learner (and per anyone else who submitted), by name; ``section``: only
    that roster section's learners."""
    rows = {
        u.name: GradebookRow(u.name)
        for u in account_store.list_users(session=session, role=Role.LEARNER, section=section)
    }
    for b in submission_store.best_scores(session=session, section=section):
        rows.setdefault(b.user_name, GradebookRow(b.user_name)).best[b.exercise_id] = Best(
            b.best_score, b.max_score
        )
    return sorted(rows.values(), key=lambda r: r.name.lower())


def long_csv(*, session: Session, exercise_id: str | None = None) -> str:
    """``user, exercise, best_score, max_score, submissions, last_submitted_at``: learners
    only, one row per learner and exercise they submitted."""
    return write_csv(
        [
            LONG_COLUMNS,
            *(
                (
                    row.user_name,
                    row.exercise_id,
                    row.best_score,
                    row.max_score,
                    row.submissions,
                    row.last_submitted_at.isoformat(),
                )
                for row in submission_store.best_scores(
                    session=session, exercise_id=exercise_id, role=Role.LEARNER
                )
            ),
        ]
    )


def wide_csv(rows: list[GradebookRow], exercises: list[Exercise]) -> str:
    """``learner, <exercise id>…, total`` with a ``(max)`` row; an empty cell: no submission."""
    maxima: list[Cell] = []
    for e in exercises:
        scored = [r.best[e.id].max_score for r in rows if e.id in r.best]
        maxima.append(max(scored) if scored else None)
    return write_csv(
        [
            ("learner", *(e.id for e in exercises), "total"),
            ("(max)", *maxima, None),
            *(
                (
                    row.name,
                    *(row.best[e.id].score if e.id in row.best else None for e in exercises),
                    row.total,
                )
                for row in rows
            ),
        ]
    )
