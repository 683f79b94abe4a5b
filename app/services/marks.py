"""What the course makes of one graded submission: the assignment holding its exercise, the
learner's own due time, late or not, and the share the late policy keeps.

Derived when asked, like every standing in app/services/courses.py: a due time moved in
``course.toml``, or an extension granted later, changes the mark of work already sent.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from app.models import Submission, SubmissionKind, User
from app.store import courses as course_store
from graders.api import Assignment, Course


@dataclass(frozen=True)
class CourseMark:
    """What the course makes of one graded submission: the assignment holding its exercise,
    the learner's own due time, the exercise's weight, and the late policy's verdict."""

    assignment_id: str
    due: datetime
    weight: float
    late: bool
    factor: float  # the share of its score the submission keeps (LatePolicy.factor)


def _mark(
    assignment: Assignment, due: datetime, exercise_id: str, submitted_at: datetime
) -> CourseMark:
    weight = next(item.weight for item in assignment.exercises if item.id == exercise_id)
    return CourseMark(
        assignment.id,
        due,
        weight,
        submitted_at > due,
        assignment.late.factor(submitted_at, due),
    )


def course_mark(
    *, session: Session, course: Course, user_id: int, exercise_id: str, submitted_at: datetime
) -> CourseMark | None:
    """The mark of a submission made at ``submitted_at``; None for an exercise in no
    assignment. Derived, like every standing: a moved due time or an extension changes it."""
    assignment = course.assignment_of(exercise_id)
    if assignment is None:
        return None
    extension = course_store.get_extension(
        session=session, user_id=user_id, assignment_id=assignment.id
    )
    due = extension.due if extension is not None else assignment.due
    return _mark(assignment, due, exercise_id, submitted_at)


def late_submissions(
    *, session: Session, course: Course, user: User, submissions: Iterable[Submission]
) -> set[str]:
    """The ids of ``user``'s graded submissions among ``submissions`` that were late (one
    query, for a history)."""
    dues = {
        e.assignment_id: e.due
        for e in course_store.list_extensions(session=session, user_id=user.id)
    }
    late = set()
    for submission in submissions:
        assignment = course.assignment_of(submission.exercise_id)
        if submission.kind is not SubmissionKind.SUBMIT or assignment is None:
            continue
        due = dues.get(assignment.id, assignment.due)
        if _mark(assignment, due, submission.exercise_id, submission.created_at).late:
            late.add(submission.id)
    return late
