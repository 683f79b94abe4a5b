"""The gradebook: best graded score per learner (not instructor) per exercise, as CSV."""

from __future__ import annotations

import csv
import io

from sqlalchemy.orm import Session

from app import crud
from app.models import Role

COLUMNS = ("user", "exercise", "best_score", "max_score", "submissions", "last_submitted_at")


def gradebook_csv(*, session: Session, exercise_id: str | None = None) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in crud.best_scores(session=session, exercise_id=exercise_id,
                                role=Role.LEARNER):
        writer.writerow((row.user_name, row.exercise_id, f"{row.best_score:g}",
                         f"{row.max_score:g}", row.submissions,
                         row.last_submitted_at.isoformat()))
    return buffer.getvalue()
