"""Answers built from rows: a submission's result and summary, and the reports it had."""

from __future__ import annotations

from sqlalchemy.orm import Session

from app.models import SubmissionStatus, utcnow
from app.services import regrades, views
from app.store import accounts as account_store
from app.store import regrades as regrade_store
from graders.api import Verdict
from tests.app.store.helpers import add_submission


def test_a_result_and_its_summary_point_to_the_submission(db: Session) -> None:
    ada = account_store.create_user(session=db, name="ada")
    row = add_submission(db, ada)
    out = views.submission_out(row)
    assert (out.id, out.url, out.user, out.status, out.tests, out.diagnosis) == (
        row.id,
        f"/submissions/{row.id}",
        "ada",
        "queued",
        [],
        None,
    )
    assert views.submission_out(row, user_name="given").user == "given"
    summary = views.submission_summary(row)
    assert (summary.id, summary.url, summary.kind, summary.verdict) == (
        row.id,
        out.url,
        "submit",
        None,
    )


def test_reports_are_the_earlier_ones_then_the_current_one(db: Session) -> None:
    ada = account_store.create_user(session=db, name="ada")
    row = add_submission(db, ada)
    graded_at = utcnow()
    row.status, row.verdict, row.score, row.max_score = (
        SubmissionStatus.DONE,
        Verdict.FAILED,
        3.0,
        10.0,
    )
    row.diagnosis, row.finished_at = {"hint": "transposed"}, graded_at
    db.flush()
    assert regrade_store.queue_regrades(
        session=db,
        exercise_id=row.exercise_id,
        version="v2",
        now=graded_at,
        lease_expires_at=graded_at,
    ) == [row.id]
    db.refresh(row)
    row.status, row.exercise_version, row.verdict, row.score, row.diagnosis = (
        SubmissionStatus.DONE,
        "v2",
        Verdict.PASSED,
        10.0,
        None,
    )
    db.flush()
    reports = regrades.reports(session=db, submission=row)
    assert [(r.exercise_version, r.verdict, r.score, r.hint, r.current) for r in reports] == [
        ("v1", "failed", 3.0, "transposed", False),
        ("v2", "passed", 10.0, None, True),
    ]
    assert reports[0].graded_at == graded_at
