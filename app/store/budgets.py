"""What a learner's submission budget counts: their graded submissions to one exercise."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.models import Submission, SubmissionKind
from app.store._dialect import aware


@dataclass(frozen=True)
class GradedCount:
    total: int
    since: int  # made at or after the ``since`` asked for
    last_at: datetime | None  # the latest one


def graded_count(
    *, session: Session, user_id: int, exercise_id: str, since: datetime
) -> GradedCount:
    """The user's graded submissions (not runs) to the exercise, waiting or graded, in one
    query: the budget's lock (app.services.submissions.check_budget) is held around it."""
    row = session.execute(
        select(
            func.count(),
            func.count().filter(Submission.created_at >= since),
            func.max(Submission.created_at),
        ).where(
            Submission.user_id == user_id,
            Submission.exercise_id == exercise_id,
            Submission.kind == SubmissionKind.SUBMIT,
        )
    ).one()
    return GradedCount(
        int(row[0] or 0), int(row[1] or 0), aware(row[2]) if row[2] is not None else None
    )
