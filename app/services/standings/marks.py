"""The mark one graded submission gets in its assignment: the assignment holding its exercise,
the learner's own due time, late or not, and the points the late policy keeps of its score.

Derived when asked, like every standing (``rules``): a due time moved in ``course.toml``, or an
extension granted later, changes the mark of work already sent.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from app.services.standings.rules import Deadline, kept_share, rounded
from app.store import extensions as extension_store
from graders.api import AssignmentSchedule


@dataclass(frozen=True)
class AssignmentMark:
    """The mark of one graded submission in its assignment: the assignment holding its exercise,
    the learner's own due time, the exercise's weight, and the late policy's verdict."""

    assignment_id: str
    deadline: Deadline
    weight: float
    submitted_at: datetime

    @property
    def due(self) -> datetime:
        assert self.deadline.due is not None  # an assignment's work always has one
        return self.deadline.due

    @property
    def late(self) -> bool:
        return self.deadline.is_late(self.submitted_at)

    @property
    def factor(self) -> float:
        """The share of its score the submission keeps (``LatePolicy.factor``)."""
        return self.deadline.factor(self.submitted_at)

    def points(self, score: float | None, max_score: float | None) -> float | None:
        """The points the submission is worth in its assignment, rounded as every standing
        (None before its score is known to the reader)."""
        if score is None or not max_score:
            return None
        return rounded(self.weight * kept_share(self.deadline, score, max_score, self.submitted_at))


def assignment_mark(
    *,
    session: Session,
    schedule: AssignmentSchedule,
    user_id: int,
    exercise_id: str,
    submitted_at: datetime,
) -> AssignmentMark | None:
    """The mark of a submission made at ``submitted_at``; None for an exercise in no
    assignment."""
    assignment = schedule.assignment_of(exercise_id)
    if assignment is None:
        return None
    extension = extension_store.get_extension(
        session=session, user_id=user_id, assignment_id=assignment.id
    )
    due = extension.due if extension is not None else assignment.due
    weight = next(item.weight for item in assignment.exercises if item.id == exercise_id)
    return AssignmentMark(assignment.id, Deadline(due, assignment.late), weight, submitted_at)
