"""Similarity reports: queued, listed newest first, finished or failed; and the answers a
report compares, one per learner and exercise."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy.orm import Session

from app.models import (
    ReportState,
    Role,
    SimilarityReport,
    SubmissionKind,
    SubmissionStatus,
    User,
    WorkScope,
    utcnow,
)
from app.store import accounts as account_store
from app.store import similarity as similarity_store
from tests.app.store.helpers import add_submission


def _report(db: Session, target: str = "gru-step") -> SimilarityReport:
    return similarity_store.create_report(
        session=db, scope=WorkScope.EXERCISE, target=target, requested_by="ines"
    )


def test_a_created_report_is_queued_and_found_by_its_id(db: Session) -> None:
    report = _report(db)
    db.expire_all()
    found = similarity_store.get_report(session=db, report_id=report.id)
    assert found is not None
    assert (found.state, found.scope, found.target, found.requested_by, found.error) == (
        ReportState.QUEUED,
        WorkScope.EXERCISE,
        "gru-step",
        "ines",
        "",
    )
    assert found.result is None and found.finished_at is None
    assert similarity_store.get_report(session=db, report_id="no-such-report") is None


def test_the_latest_reports_come_first_up_to_the_limit(db: Session) -> None:
    now = utcnow()
    # Made out of order, so that neither insertion nor id order gives the answer.
    ages = {"b": 2, "c": 3, "a": 1, "d": 4}
    for target, hours in ages.items():
        _report(db, target).created_at = now - timedelta(hours=hours)
    db.flush()
    assert [r.target for r in similarity_store.list_reports(session=db)] == ["a", "b", "c", "d"]
    assert [r.target for r in similarity_store.list_reports(session=db, limit=2)] == ["a", "b"]


def test_a_finished_report_keeps_its_result_and_a_failed_one_its_error(db: Session) -> None:
    done, failed = _report(db), _report(db)
    now = utcnow()
    result = [{"a": "ada", "b": "bob", "similarity": 0.9}]
    similarity_store.finish_report(session=db, report=done, result=result, now=now)
    similarity_store.fail_report(session=db, report=failed, error="no answers", now=now)
    db.flush()
    db.expire_all()
    assert (done.state, done.result, done.finished_at, done.error) == (
        ReportState.DONE,
        result,
        now,
        "",
    )
    assert (failed.state, failed.result, failed.finished_at, failed.error) == (
        ReportState.FAILED,
        None,
        now,
        "no answers",
    )
    assert similarity_store.queued_report_ids(session=db) == []


def test_final_answers_are_each_learners_best_graded_submission_the_latest_on_ties(
    db: Session,
) -> None:
    start = utcnow() - timedelta(hours=1)
    minute = 0

    def graded(
        user: User,
        score: float,
        *,
        exercise: str = "gru-update-gate",
        kind: SubmissionKind = SubmissionKind.SUBMIT,
        status: SubmissionStatus = SubmissionStatus.DONE,
    ) -> str:
        nonlocal minute
        minute += 1
        row = add_submission(db, user, kind=kind, exercise=exercise)
        row.status, row.score, row.code = status, score, f"# {user.name} {minute}"
        row.created_at = start + timedelta(minutes=minute)
        return row.id

    # Bob first, so that the answers' order is not the insertion order.
    bob = account_store.create_user(session=db, name="bob")
    ada = account_store.create_user(session=db, name="ada")
    ines = account_store.create_user(session=db, name="ines", role=Role.INSTRUCTOR)
    bob_best = graded(bob, 7.0)
    graded(bob, 3.0)
    graded(ada, 5.0)
    ada_latest_tie = graded(ada, 5.0)
    graded(ada, 9.0, kind=SubmissionKind.RUN)
    graded(ada, 10.0, status=SubmissionStatus.QUEUED)
    graded(ines, 10.0)
    ada_step = graded(ada, 1.0, exercise="gru-step")
    graded(ada, 10.0, exercise="not-asked")
    db.flush()
    answers = similarity_store.final_answers(
        session=db, exercise_ids=["gru-update-gate", "gru-step"]
    )
    assert [(a.exercise_id, a.user_name, a.submission_id) for a in answers] == [
        ("gru-step", "ada", ada_step),
        ("gru-update-gate", "ada", ada_latest_tie),
        ("gru-update-gate", "bob", bob_best),
    ]
    assert answers[1].code == "# ada 4"
