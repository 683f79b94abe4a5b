"""The gradebook: every learner's best score per exercise, as table rows and as CSV."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field

from sqlalchemy.orm import Session

from app import crud
from app.models import Role
from app.web.exercises_view import Best
from app.web.templating import format_score
from graders import Exercise

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


@dataclass
class GradebookRow:
    name: str
    best: dict[str, Best] = field(default_factory=dict)

    @property
    def total(self) -> float:
        return round(sum(b.score for b in self.best.values()), 6)


def gradebook_rows(db: Session) -> list[GradebookRow]:
    """One row per learner (and per anyone else who submitted), by name."""
    rows = {u.name: GradebookRow(u.name) for u in crud.list_users(session=db)
            if u.role is Role.LEARNER}
    for b in crud.best_scores(session=db):
        rows.setdefault(b.user_name, GradebookRow(b.user_name)).best[b.exercise_id] = Best(
            b.best_score, b.max_score)
    return sorted(rows.values(), key=lambda r: r.name.lower())


def _cell(text: str) -> str:
    """Neutralise spreadsheet formulas (CSV injection) in text cells."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def gradebook_csv(rows: list[GradebookRow], exercises: list[Exercise]) -> str:
    """``learner, <exercise id>…, total``; an empty cell means no submission."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["learner", *(e.id for e in exercises), "total"])
    max_row = ["(max)"]
    for e in exercises:
        maxima = [r.best[e.id].max_score for r in rows if e.id in r.best]
        max_row.append(format_score(max(maxima)) if maxima else "")
    writer.writerow([*max_row, ""])
    for row in rows:
        scores = [format_score(row.best[e.id].score) if e.id in row.best else ""
                  for e in exercises]
        writer.writerow([_cell(row.name), *scores, format_score(row.total)])
    return out.getvalue()
