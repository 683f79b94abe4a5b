"""Reading submissions back: who may see one, a learner's history, an exercise's submissions.

The API (``app/api/deps.py``) and the pages (``app/web/pages_learn.py``) decide "may this user
see this submission" here and nowhere else.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from urllib.parse import urlencode

from sqlalchemy.orm import Session

from app.models import Submission, SubmissionKind, User
from app.services.assignments import find_user, get_assignment
from app.services.standings.load import late_submissions
from app.store import submissions as submission_store
from graders.api import Assignment, ExerciseCatalog, ScheduleError


def can_see(user: User, submission: Submission) -> bool:
    """A learner sees their own submissions, an instructor every submission."""
    return user.is_instructor or submission.user_id == user.id


def visible_submission(*, session: Session, user: User, submission_id: str) -> Submission | None:
    """The submission (with its user) if it exists and ``user`` may see it, else None."""
    submission = submission_store.get_submission(
        session=session, submission_id=submission_id, with_user=True
    )
    return submission if submission is not None and can_see(user, submission) else None


def own_history(
    *,
    session: Session,
    user: User,
    exercise_id: str | None = None,
    kind: SubmissionKind | None = None,
    limit: int,
) -> Sequence[Submission]:
    """``user``'s own submissions and runs, newest first."""
    return submission_store.list_submissions(
        session=session, user_id=user.id, exercise_id=exercise_id, kind=kind, limit=limit
    )


@dataclass(frozen=True)
class SubmissionFilter:
    """Which graded submissions an instructor's list shows: a learner's (by name), one
    exercise's, one assignment's (its exercises); empty: any."""

    learner: str = ""
    exercise: str = ""
    assignment: str = ""

    def query(self, **changes: str) -> str:
        """The list's query string with ``changes`` applied (empty values left out), so the
        list's links narrow what it shows without dropping the rest."""
        values = {**asdict(self), **changes}
        return urlencode({key: value for key, value in values.items() if value})


@dataclass(frozen=True)
class SubmissionList:
    submissions: Sequence[Submission]  # newest first
    late: frozenset[str]  # the ids of those after their learner's own due time
    assignments: tuple[Assignment, ...]  # what the list can be filtered by


def graded_submissions(
    *, session: Session, catalog: ExerciseCatalog, chosen: SubmissionFilter, limit: int
) -> SubmissionList:
    """Every user's graded submissions (not runs) that ``chosen`` lets through, newest first.

    Raises ``LearnerNotFound`` and ``AssignmentNotFound`` for names that do not exist (and
    ``ScheduleError`` for an assignment of a broken course.toml). Without an assignment asked
    for, the list needs no schedule: a broken course.toml leaves it without late marks."""
    user_id = find_user(session=session, name=chosen.learner).id if chosen.learner else None
    exercise_ids = (
        get_assignment(catalog.schedule(), chosen.assignment).exercise_ids
        if chosen.assignment
        else None
    )
    submissions = submission_store.list_submissions(
        session=session,
        user_id=user_id,
        exercise_id=chosen.exercise or None,
        exercise_ids=exercise_ids,
        kind=SubmissionKind.SUBMIT,
        limit=limit,
    )
    try:
        schedule = catalog.schedule()
    except ScheduleError:
        return SubmissionList(submissions, frozenset(), ())
    return SubmissionList(
        submissions,
        late_submissions(session=session, schedule=schedule, submissions=submissions),
        schedule.assignments,
    )
