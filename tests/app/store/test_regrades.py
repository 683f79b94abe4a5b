"""Regrades: submissions graded with another version of their exercise, counted and queued
again with their earlier reports kept."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy.orm import Session

from app.models import Submission, SubmissionKind, SubmissionStatus, User, utcnow
from app.store import accounts as account_store
from app.store import regrades as regrade_store
from graders.results import Verdict
from tests.app.store.helpers import add_submission


def _graded(
    db: Session,
    user: User,
    *,
    exercise: str = "gru-update-gate",
    version: str = "v1",
    kind: SubmissionKind = SubmissionKind.SUBMIT,
    status: SubmissionStatus = SubmissionStatus.DONE,
) -> Submission:
    """A submission of ``user`` graded with ``version`` (flushed)."""
    row = add_submission(db, user, kind=kind, exercise=exercise)
    row.exercise_version, row.status = version, status
    row.verdict, row.score, row.max_score = Verdict.FAILED, 4.0, 10.0
    row.message, row.finished_at = "two tests failed", utcnow() - timedelta(hours=1)
    # What its last grading left: a regrade starts afresh.
    row.attempts, row.worker, row.lease_token = 2, "h:1", "t"
    db.flush()
    return row


def test_stale_counts_only_graded_submissions_of_another_version(db: Session) -> None:
    ada = account_store.create_user(session=db, name="ada")
    _graded(db, ada, version="v1")
    _graded(db, ada, version="v0")
    _graded(db, ada, version="v2")  # the current version
    _graded(db, ada, version="v1", kind=SubmissionKind.RUN)
    _graded(db, ada, version="v1", status=SubmissionStatus.QUEUED)
    _graded(db, ada, exercise="gru-step", version="v1")
    _graded(db, ada, exercise="other", version="v1")  # not asked about
    counts = regrade_store.count_stale(
        session=db, versions={"gru-update-gate": "v2", "gru-step": "v1"}
    )
    assert counts == {"gru-update-gate": 2, "gru-step": 0}


def test_queueing_regrades_keeps_each_report_and_queues_the_row_once(db: Session) -> None:
    ada = account_store.create_user(session=db, name="ada")
    stale = _graded(db, ada, version="v1")
    released_before = _graded(db, ada, version="v1")
    shown_at = released_before.released_at = utcnow() - timedelta(minutes=30)
    current = _graded(db, ada, version="v2")
    run = _graded(db, ada, version="v1", kind=SubmissionKind.RUN)
    now, lease = utcnow(), utcnow() + timedelta(minutes=1)

    def queue() -> list[str]:
        return regrade_store.queue_regrades(
            session=db, exercise_id="gru-update-gate", version="v2", now=now, lease_expires_at=lease
        )

    assert sorted(queue()) == sorted([stale.id, released_before.id])
    assert queue() == []  # queued rows are not graded: nothing to queue again
    db.expire_all()
    (earlier,) = regrade_store.earlier_reports(session=db, submission_id=stale.id)
    assert (earlier.exercise_version, earlier.verdict, earlier.score, earlier.max_score) == (
        "v1",
        Verdict.FAILED,
        4.0,
        10.0,
    )
    assert (earlier.message, earlier.graded_at, earlier.replaced_at) == (
        "two tests failed",
        stale.finished_at,
        now,
    )
    assert (
        stale.status,
        stale.regrade,
        stale.attempts,
        stale.worker,
        stale.lease_token,
        stale.lease_expires_at,
    ) == (SubmissionStatus.QUEUED, True, 0, None, None, lease)
    # A learner keeps seeing a row's first result at the time it was first shown.
    assert stale.released_at == stale.finished_at
    assert released_before.released_at == shown_at
    for untouched in (current, run):
        assert (untouched.status, untouched.regrade, untouched.worker) == (
            SubmissionStatus.DONE,
            False,
            "h:1",
        )
        assert regrade_store.earlier_reports(session=db, submission_id=untouched.id) == []
