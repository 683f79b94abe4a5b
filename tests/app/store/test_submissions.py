"""Submissions: graded attempts count finished submissions only, lists filter and order."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy.orm import Session

from app.models import Role, SubmissionKind, SubmissionStatus, utcnow
from app.store import accounts as account_store
from app.store import submissions as submission_store
from tests.app.store.helpers import add_submission


def test_graded_attempts_ignore_runs_and_unfinished(db: Session) -> None:
    ada = account_store.create_user(session=db, name="ada")
    for score, kind in (
        (3.0, SubmissionKind.SUBMIT),
        (9.0, SubmissionKind.RUN),
        (5.0, SubmissionKind.SUBMIT),
    ):
        row = add_submission(db, ada, kind=kind)
        row.status, row.score, row.max_score = SubmissionStatus.DONE, score, 10.0
    add_submission(db, ada)  # still queued
    db.flush()
    attempts = submission_store.graded_attempts(
        session=db, exercise_ids=["gru-update-gate"], user_id=ada.id
    )
    assert [(a.exercise_id, a.score, a.max_score) for a in attempts] == [
        ("gru-update-gate", 3.0, 10.0),
        ("gru-update-gate", 5.0, 10.0),
    ]
    assert all(a.created_at.tzinfo is not None and a.earlier is None for a in attempts)
    assert (
        submission_store.graded_attempts(
            session=db, exercise_ids=["gru-update-gate"], role=Role.INSTRUCTOR
        )
        == []
    )


def test_list_submissions_filters_and_orders(db: Session) -> None:
    ada = account_store.create_user(session=db, name="ada")
    bob = account_store.create_user(session=db, name="bob")
    first = add_submission(db, ada)
    first.created_at = utcnow() - timedelta(minutes=1)
    second = add_submission(db, ada, kind=SubmissionKind.RUN)
    add_submission(db, bob)
    add_submission(db, ada, exercise="gru-step")
    db.flush()
    rows = submission_store.list_submissions(
        session=db, user_id=ada.id, exercise_id="gru-update-gate"
    )
    assert [r.id for r in rows] == [second.id, first.id]
    runs = submission_store.list_submissions(session=db, user_id=ada.id, kind=SubmissionKind.RUN)
    assert [r.id for r in runs] == [second.id]
    everyone = submission_store.list_submissions(session=db, exercise_id="gru-update-gate")
    assert len(everyone) == 3


def test_learner_load_counts_own_waiting_rows_and_recent_ones(db: Session) -> None:
    # A regrade waits in nobody's quota; a row waits until its result is released, running or
    # graded before (a place freed when a grading ends would tell its exact end).
    ada = account_store.create_user(session=db, name="ada")
    now = utcnow()
    old, recent, running, regrade, unreleased, released = (
        add_submission(db, ada) for _ in range(6)
    )
    old.created_at = now - timedelta(hours=1)
    recent.created_at = now - timedelta(seconds=30)
    running.status, running.created_at = SubmissionStatus.RUNNING, now - timedelta(seconds=20)
    regrade.regrade, regrade.created_at = True, now - timedelta(hours=2)
    for done, release_in in ((unreleased, timedelta(seconds=1)), (released, -timedelta(seconds=1))):
        done.status, done.created_at = SubmissionStatus.DONE, now - timedelta(hours=3)
        done.released_at = now + release_in
    db.flush()
    load = submission_store.learner_load(
        session=db, user_id=ada.id, now=now, since=now - timedelta(minutes=1)
    )
    assert (load.waiting, load.recent, load.oldest_recent_at) == (4, 2, recent.created_at)
    assert submission_store.learner_load(
        session=db, user_id=ada.id, now=now, since=None
    ) == submission_store.LearnerLoad(waiting=4, recent=0, oldest_recent_at=None)


def test_an_idempotency_key_finds_only_its_own_learners_submission(db: Session) -> None:
    ada = account_store.create_user(session=db, name="ada")
    bob = account_store.create_user(session=db, name="bob")
    rows = {
        user.name: submission_store.create_submission(
            session=db,
            user=user,
            exercise_id="gru-step",
            exercise_version="v1",
            code="x = 1",
            kind=SubmissionKind.SUBMIT,
            lease_expires_at=utcnow(),
            idempotency_key="same-key",
        )
        for user in (ada, bob)
    }
    db.expire_all()
    found = submission_store.get_submission_by_idempotency_key(
        session=db, user_id=ada.id, key="same-key"
    )
    assert found is not None and (found.id, found.user.name) == (rows["ada"].id, "ada")
    assert (
        submission_store.get_submission_by_idempotency_key(
            session=db, user_id=ada.id, key="other-key"
        )
        is None
    )


def test_progress_tells_a_submissions_status_and_release_time(db: Session) -> None:
    ada = account_store.create_user(session=db, name="ada")
    queued, graded = add_submission(db, ada), add_submission(db, ada)
    release = utcnow() + timedelta(seconds=5)
    graded.status, graded.released_at = SubmissionStatus.DONE, release
    db.flush()
    assert submission_store.submission_progress(session=db, submission_id=queued.id) == (
        SubmissionStatus.QUEUED,
        None,
    )
    progress = submission_store.submission_progress(session=db, submission_id=graded.id)
    assert progress == (SubmissionStatus.DONE, release)
    assert progress[1] is not None and progress[1].tzinfo is not None
    assert submission_store.submission_progress(session=db, submission_id="missing") is None
