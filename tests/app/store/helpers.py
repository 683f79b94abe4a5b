"""Helpers of the store's tests: a submission row as the service stores one."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy.orm import Session

from app.models import Submission, SubmissionKind, User, utcnow
from app.store import submissions as submission_store


def add_submission(
    db: Session,
    user: User,
    *,
    kind: SubmissionKind = SubmissionKind.SUBMIT,
    exercise: str = "gru-update-gate",
) -> Submission:
    """A queued submission of ``user`` (flushed), its wake-up lease a minute long."""
    return submission_store.create_submission(
        session=db,
        user=user,
        exercise_id=exercise,
        exercise_version="v1",
        code="x = 1",
        kind=kind,
        lease_expires_at=utcnow() + timedelta(seconds=60),
    )
