"""Reading submissions back: who may see one, a learner's history, an exercise's submissions.

The API (``app/api/deps.py``) and the pages (``app/web/pages_learn.py``) decide "may this user
see this submission" here and nowhere else.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.orm import Session

from app.models import Submission, SubmissionKind, User
from app.store import submissions as submission_store


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


def graded_submissions(*, session: Session, exercise_id: str, limit: int) -> Sequence[Submission]:
    """Every learner's graded submissions (not runs) of one exercise, newest first."""
    return submission_store.list_submissions(
        session=session, exercise_id=exercise_id, kind=SubmissionKind.SUBMIT, limit=limit
    )
