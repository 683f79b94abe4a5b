"""Similarity reports (queued, then done or failed) and the answers a report compares."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import (
    ReportState,
    Role,
    SimilarityReport,
    Submission,
    SubmissionKind,
    SubmissionStatus,
    User,
    WorkScope,
)


def create_report(
    *, session: Session, scope: WorkScope, target: str, requested_by: str
) -> SimilarityReport:
    report = SimilarityReport(scope=scope, target=target, requested_by=requested_by, error="")
    session.add(report)
    session.flush()
    return report


def get_report(*, session: Session, report_id: str) -> SimilarityReport | None:
    return session.get(SimilarityReport, report_id)


def list_reports(*, session: Session, limit: int = 20) -> list[SimilarityReport]:
    """The latest reports first."""
    query = select(SimilarityReport).order_by(SimilarityReport.created_at.desc()).limit(limit)
    return list(session.scalars(query))


def queued_report_ids(*, session: Session) -> list[str]:
    """The reports still waiting to be computed, oldest first."""
    query = (
        select(SimilarityReport.id)
        .where(SimilarityReport.state == ReportState.QUEUED)
        .order_by(SimilarityReport.created_at)
    )
    return list(session.scalars(query))


def finish_report(
    *, session: Session, report: SimilarityReport, result: list[dict[str, Any]], now: datetime
) -> None:
    report.state, report.result, report.finished_at = ReportState.DONE, result, now


def fail_report(*, session: Session, report: SimilarityReport, error: str, now: datetime) -> None:
    report.state, report.error, report.finished_at = ReportState.FAILED, error, now


@dataclass(frozen=True)
class FinalAnswer:
    user_name: str
    exercise_id: str
    submission_id: str
    code: str


def final_answers(*, session: Session, exercise_ids: Sequence[str]) -> list[FinalAnswer]:
    """Each learner's answer that counts, per exercise: the graded submission with the best
    score, the latest among equal scores (runs and instructors' work never)."""
    query = (
        select(
            User.name,
            Submission.exercise_id,
            Submission.id,
            Submission.code,
            Submission.score,
            Submission.created_at,
        )
        .join(User, User.id == Submission.user_id)
        .where(
            Submission.exercise_id.in_(exercise_ids),
            Submission.kind == SubmissionKind.SUBMIT,
            Submission.status == SubmissionStatus.DONE,
            User.role == Role.LEARNER,
        )
        .order_by(Submission.created_at)
    )
    best: dict[tuple[str, str], tuple[float, FinalAnswer]] = {}
    for name, exercise_id, submission_id, code, score, _ in session.execute(query):
        key, kept = (name, exercise_id), best.get((name, exercise_id))
        if kept is None or float(score or 0) >= kept[0]:  # later rows win ties
            best[key] = (float(score or 0), FinalAnswer(name, exercise_id, submission_id, code))
    return sorted((a for _, a in best.values()), key=lambda a: (a.exercise_id, a.user_name))
