"""Answers built from database rows: a submission's result and summary, and the reports it had.

Nothing here queries or decides: the callers load the rows (and check who may see them) and
hand them over, so the API, the long-poll and the grading thread answer with one shape.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from app.models import EarlierReport, Submission, utcnow
from app.schemas import (
    AssignmentCreditOut,
    DiagnosisOut,
    ReportOut,
    SubmissionOut,
    SubmissionSummary,
    TestResultOut,
)
from app.services import release

if TYPE_CHECKING:  # the marks service turns its rows into answers here
    from app.services.standings.marks import AssignmentMark


def submission_url(submission_id: str) -> str:
    return f"/submissions/{submission_id}"


def submission_out(
    submission: Submission,
    user_name: str | None = None,
    *,
    exact: bool = False,
    now: datetime | None = None,
) -> SubmissionOut:
    """The contract's result view (without ``user_name``, call with the row's session open:
    it reads the user): as a learner may see it at ``now`` (by default the present), or the
    row itself with ``exact`` (an instructor's)."""
    if user_name is None:
        user_name = submission.user.name
    if not exact:
        submission = release.seen_by_learner(submission, now or utcnow())
    return SubmissionOut(
        id=submission.id,
        url=submission_url(submission.id),
        exercise=submission.exercise_id,
        exercise_version=submission.exercise_version,
        user=user_name,
        kind=submission.kind.value,
        status=submission.status.value,
        verdict=submission.verdict.value if submission.verdict else None,
        score=submission.score,
        max_score=submission.max_score,
        message=submission.message,
        tests=[TestResultOut.model_validate(t) for t in submission.tests or []],
        diagnosis=(
            DiagnosisOut.model_validate(submission.diagnosis) if submission.diagnosis else None
        ),
        output=submission.output,
        created_at=submission.created_at,
        started_at=submission.started_at,
        finished_at=submission.finished_at,
        duration_ms=submission.duration_ms,
        attempts=submission.attempts,
        regraded=submission.regrade,
        variant=submission.variant or {},
    )


def credited(result: SubmissionOut, mark: AssignmentMark | None) -> SubmissionOut:
    """``result`` with what its assignment makes of it (``standings.marks.assignment_mark``):
    late or not, and its points in the assignment once its score is known to the reader."""
    if mark is None:
        return result
    credit = AssignmentCreditOut(
        assignment=mark.assignment_id,
        due=mark.due,
        late_factor=mark.factor,
        points=mark.points(result.score, result.max_score),
        max_points=mark.weight,
    )
    return result.model_copy(update={"late": mark.late, "counts_for": credit})


def submission_summary(
    submission: Submission, now: datetime | None = None, *, late: bool = False
) -> SubmissionSummary:
    """A line of the learner's history, as they may see it at ``now`` (by default the
    present); ``late`` from ``standings.load.late_submissions``."""
    submission = release.seen_by_learner(submission, now or utcnow())
    return SubmissionSummary(
        id=submission.id,
        url=submission_url(submission.id),
        exercise=submission.exercise_id,
        kind=submission.kind.value,
        status=submission.status.value,
        verdict=submission.verdict.value if submission.verdict else None,
        score=submission.score,
        max_score=submission.max_score,
        created_at=submission.created_at,
        finished_at=submission.finished_at,
        late=late,
    )


def earlier_report_out(report: EarlierReport) -> ReportOut:
    """A report the submission had before a regrade replaced it."""
    return ReportOut(
        exercise_version=report.exercise_version,
        verdict=report.verdict.value if report.verdict else None,
        score=report.score,
        max_score=report.max_score,
        graded_at=report.graded_at,
        hint=(report.diagnosis or {}).get("hint"),
        current=False,
    )


def current_report_out(submission: Submission) -> ReportOut:
    """The submission's report now, in the shape of its earlier ones."""
    return ReportOut(
        exercise_version=submission.exercise_version,
        verdict=submission.verdict.value if submission.verdict else None,
        score=submission.score,
        max_score=submission.max_score,
        graded_at=submission.finished_at,
        hint=(submission.diagnosis or {}).get("hint"),
        current=True,
    )
