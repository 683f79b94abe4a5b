"""Regrades: submissions graded with an exercise's earlier version, queued again, and the
reports they had before."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import and_, func, insert, literal, select, update
from sqlalchemy.orm import Session

from app.models import EarlierReport, Submission, SubmissionKind, SubmissionStatus, UTCDateTime


def _graded_with_another_version(exercise_id: str, version: str) -> Any:
    return and_(
        Submission.exercise_id == exercise_id,
        Submission.exercise_version != version,
        Submission.kind == SubmissionKind.SUBMIT,
        Submission.status == SubmissionStatus.DONE,
    )


def count_stale(*, session: Session, versions: dict[str, str]) -> dict[str, int]:
    """Per exercise: graded submissions whose version is not ``versions[exercise]``."""
    counts = {}
    for exercise_id, version in versions.items():
        counts[exercise_id] = int(
            session.scalar(
                select(func.count())
                .select_from(Submission)
                .where(_graded_with_another_version(exercise_id, version))
            )
            or 0
        )
    return counts


def queue_regrades(
    *, session: Session, exercise_id: str, version: str, now: datetime, lease_expires_at: datetime
) -> list[str]:
    """Keep the current report of every submission graded with another version as an
    earlier report, then queue the submission again as a regrade; the ids queued."""
    stale = _graded_with_another_version(exercise_id, version)
    ids = list(session.scalars(select(Submission.id).where(stale)))
    if not ids:
        return []
    chosen = Submission.id.in_(ids)
    session.execute(
        insert(EarlierReport).from_select(
            [
                "submission_id",
                "exercise_version",
                "verdict",
                "score",
                "max_score",
                "tests",
                "diagnosis",
                "message",
                "graded_at",
                "replaced_at",
            ],
            select(
                Submission.id,
                Submission.exercise_version,
                Submission.verdict,
                Submission.score,
                Submission.max_score,
                Submission.tests,
                Submission.diagnosis,
                Submission.message,
                Submission.finished_at,
                literal(now, UTCDateTime()),
            ).where(chosen, stale),
        )
    )
    session.execute(
        update(Submission)
        .where(chosen, stale)
        .values(
            status=SubmissionStatus.QUEUED,
            regrade=True,
            attempts=0,
            lease_token=None,
            lease_expires_at=lease_expires_at,
            worker=None,
            # A row graded before release times keeps its first times for its learner while
            # the regrade claims and finishes it (app.services.release.seen_by_learner).
            released_at=func.coalesce(Submission.released_at, Submission.finished_at),
        )
        .execution_options(synchronize_session=False)
    )
    return ids


def earlier_reports(*, session: Session, submission_id: str) -> Sequence[EarlierReport]:
    """The reports a submission had before its regrades, oldest first."""
    return session.scalars(
        select(EarlierReport)
        .where(EarlierReport.submission_id == submission_id)
        .order_by(EarlierReport.id)
    ).all()


def queued_at(*, session: Session, submission_id: str) -> datetime | None:
    """When the submission's latest regrade was queued (None: it never was)."""
    return session.scalar(
        select(func.max(EarlierReport.replaced_at)).where(
            EarlierReport.submission_id == submission_id
        )
    )
