"""Mining: the wrong submissions of an exercise version that no diagnosis explained, and the
diagnosis a mined mistake gives them afterwards."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from app.models import Role, Submission, SubmissionKind, SubmissionStatus, User
from graders.api import Verdict


@dataclass(frozen=True)
class WrongSubmission:
    id: str
    user_id: int
    code: str
    tests: tuple[dict[str, Any], ...]
    created_at: datetime


def undiagnosed_wrong(*, session: Session, exercise_id: str, version: str) -> list[WrongSubmission]:
    """Every learner's graded submission of the version that did not pass and has no
    diagnosis, oldest first (an instructor's own tries are not the class's mistakes).

    The diagnosis is tested here, not in SQL: an absent JSON value is SQL NULL on one backend
    and the JSON ``null`` on another."""
    rows = session.execute(
        select(
            Submission.id,
            Submission.user_id,
            Submission.code,
            Submission.tests,
            Submission.created_at,
            Submission.diagnosis,
        )
        .join(User, User.id == Submission.user_id)
        .where(
            User.role == Role.LEARNER,
            Submission.exercise_id == exercise_id,
            Submission.exercise_version == version,
            Submission.kind == SubmissionKind.SUBMIT,
            Submission.status == SubmissionStatus.DONE,
            Submission.verdict != Verdict.PASSED,
        )
        .order_by(Submission.created_at, Submission.id)
    ).all()
    return [
        WrongSubmission(row.id, row.user_id, row.code, tuple(row.tests or ()), row.created_at)
        for row in rows
        if row.diagnosis is None
    ]


def rediagnose(
    *,
    session: Session,
    submission_id: str,
    graded_version: str,
    diagnosis: dict[str, Any] | None,
    version: str,
) -> bool:
    """Give the submission the diagnosis a later version of its exercise found, and that
    version, if it is still as it was mined (graded with ``graded_version``, done); its
    score, verdict and tests are left as they are. Whether it was changed."""
    changed = session.execute(
        update(Submission)
        .where(
            Submission.id == submission_id,
            Submission.exercise_version == graded_version,
            Submission.status == SubmissionStatus.DONE,
        )
        .values(diagnosis=diagnosis, exercise_version=version)
        .execution_options(synchronize_session=False)
    )
    return bool(changed.rowcount)  # type: ignore[attr-defined]
