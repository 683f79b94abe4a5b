"""The gradebook: each learner's best graded score per exercise, as rows and as CSV.

Two CSV shapes share one writer: the API's long one (a row per learner and exercise) and the
instructor page's wide one (a row per learner, a column per exercise), which says what the page
says: the points rounded as the page rounds them (``format_points``), the totals summed before
rounding as the page sums them. The writer neutralises text that a spreadsheet would run as a
formula (CSV injection): learners choose their names.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from sqlalchemy.orm import Session

from app.models import Role, User
from app.store import accounts as account_store
from app.store import submissions as submission_store
from graders.api import Exercise, ExerciseCatalog, ExerciseError

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
LONG_COLUMNS = ("user", "exercise", "best_score", "max_score", "submissions", "last_submitted_at")
LEARNER_COLUMNS = ("learner", "name", "section", "email")


def format_points(value: float) -> str:
    """Points as every page and the gradebook CSV show them: at most two decimals, without
    trailing zeros (``2.5``, ``0.33``, ``27``)."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


@dataclass(frozen=True)
class Points:
    """A CSV cell of points, written as the pages show them (``format_points``)."""

    value: float


Cell = str | float | int | Points | None


@dataclass(frozen=True)
class Best:
    score: float
    max_score: float


@dataclass(frozen=True)
class Learner:
    """Who a gradebook row is about, as every gradebook CSV names them (``LEARNER_COLUMNS``)."""

    name: str
    display_name: str | None = None
    section: str | None = None
    email: str | None = None

    @classmethod
    def of(cls, user: User) -> Learner:
        return cls(user.name, user.display_name, user.section, user.email)

    @property
    def cells(self) -> tuple[Cell, ...]:
        return (self.name, self.display_name, self.section, self.email)


@dataclass
class GradebookRow:
    learner: Learner
    best: dict[str, Best] = field(default_factory=dict)

    @classmethod
    def of(cls, user: User) -> GradebookRow:
        return cls(Learner.of(user))

    @property
    def name(self) -> str:
        return self.learner.name

    @property
    def total(self) -> float:
        return round(sum(b.score for b in self.best.values()), 6)


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


def best_by_exercise(*, session: Session, user_id: int) -> dict[str, Best]:
    """One learner's best graded score per exercise."""
    return {
        b.exercise_id: Best(b.best_score, b.max_score)
        for b in submission_store.best_scores(session=session, user_id=user_id)
    }


def gradebook_rows(*, session: Session, section: str | None = None) -> list[GradebookRow]:
    """One row per learner (and per anyone else who submitted), by name; ``section``: only
    that roster section's learners."""
    users = account_store.list_users(session=session, section=section)
    rows = {u.id: GradebookRow.of(u) for u in users if u.role is Role.LEARNER}
    others = {u.id: u for u in users if u.role is not Role.LEARNER}
    for b in submission_store.best_scores(session=session, section=section):
        if b.user_id not in rows:
            rows[b.user_id] = GradebookRow.of(others[b.user_id])
        rows[b.user_id].best[b.exercise_id] = Best(b.best_score, b.max_score)
    return sorted(rows.values(), key=lambda r: r.name.lower())


def max_points(catalog: ExerciseCatalog, exercise: Exercise) -> float | None:
    """The points of the exercise's current version (its cases' sum), whether or not anyone
    submitted; None for a folder that does not prepare (its learners' maxima stand in)."""
    try:
        prepared = catalog.prepare(exercise)
    except ExerciseError:
        return None
    return round(sum(case.spec.points for case in prepared.cases), 6)


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


def _column_max(rows: list[GradebookRow], exercise_id: str, known: float | None) -> float | None:
    if known is not None:
        return known
    scored = [r.best[exercise_id].max_score for r in rows if exercise_id in r.best]
    return max(scored) if scored else None


def _best_cell(row: GradebookRow, exercise_id: str) -> Points | None:
    best = row.best.get(exercise_id)
    return Points(best.score) if best is not None else None


def wide_csv(
    rows: list[GradebookRow], exercises: list[Exercise], maxima: Mapping[str, float | None]
) -> str:
    """``learner, name, section, email, <exercise id>…, total`` with a ``(max)`` row; an
    empty cell: no submission. ``maxima``: each exercise's points (``max_points``); where
    one is None, the highest maximum among the learners' scores."""
    column_max = [_column_max(rows, e.id, maxima.get(e.id)) for e in exercises]
    return write_csv(
        [
            (*LEARNER_COLUMNS, *(e.id for e in exercises), "total"),
            (
                "(max)",
                *(None for _ in LEARNER_COLUMNS[1:]),
                *(Points(m) if m is not None else None for m in column_max),
                Points(sum(m for m in column_max if m is not None)),
            ),
            *(
                (
                    *row.learner.cells,
                    *(_best_cell(row, e.id) for e in exercises),
                    Points(row.total),
                )
                for row in rows
            ),
        ]
    )
