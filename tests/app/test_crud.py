"""Queries: users, tokens, passwords, submissions, best scores, the lease compare-and-sets."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from app import crud
from app.core.security import hash_token, verify_password
from app.models import ApiToken, Role, Submission, SubmissionKind, SubmissionStatus, User, utcnow


def _submission(db: Session, user: User, *, kind: SubmissionKind = SubmissionKind.SUBMIT,
                exercise: str = "gru-update-gate") -> Submission:
    return crud.create_submission(session=db, user=user, exercise_id=exercise,
                                  exercise_version="v1", code="x = 1", kind=kind,
                                  lease_expires_at=utcnow() + timedelta(seconds=60))


def test_tokens_are_stored_hashed_and_can_be_revoked(db: Session) -> None:
    user = crud.create_user(session=db, name="ada")
    row, token = crud.create_token(session=db, user=user)
    stored = db.scalars(select(ApiToken)).one()
    assert stored.token_hash == hash_token(token) and token not in stored.token_hash
    assert token.startswith("nj_") and row.prefix == token[:10]
    assert crud.get_user_by_token(session=db, token=token) is user
    assert crud.get_user_by_token(session=db, token=token + "x") is None
    assert crud.revoke_tokens(session=db, user=user) == 1
    assert crud.get_user_by_token(session=db, token=token) is None


def test_revoke_by_prefix_keeps_the_others(db: Session) -> None:
    user = crud.create_user(session=db, name="ada")
    _, first = crud.create_token(session=db, user=user)
    _, second = crud.create_token(session=db, user=user)
    assert crud.revoke_tokens(session=db, user=user, prefix=first[:10]) == 1
    assert crud.get_user_by_token(session=db, token=first) is None
    assert crud.get_user_by_token(session=db, token=second) is user


def test_passwords_use_argon2(db: Session) -> None:
    user = crud.create_user(session=db, name="ada", role=Role.INSTRUCTOR, password="s3cret!")
    assert user.password_hash is not None and user.password_hash.startswith("$argon2")
    assert user.is_instructor
    assert verify_password(user.password_hash, "s3cret!")
    assert not verify_password(user.password_hash, "wrong")
    assert crud.create_user(session=db, name="bob").password_hash is None


def test_best_scores_ignore_runs_and_unfinished(db: Session) -> None:
    ada = crud.create_user(session=db, name="ada")
    for score, kind in ((3.0, SubmissionKind.SUBMIT), (9.0, SubmissionKind.RUN),
                        (5.0, SubmissionKind.SUBMIT)):
        row = _submission(db, ada, kind=kind)
        row.status, row.score, row.max_score = SubmissionStatus.DONE, score, 10.0
    _submission(db, ada)  # still queued
    db.flush()
    (best,) = crud.best_scores(session=db, user_id=ada.id)
    assert (best.exercise_id, best.best_score, best.max_score, best.submissions) == (
        "gru-update-gate", 5.0, 10.0, 2)
    assert best.last_submitted_at.tzinfo is not None
    assert crud.best_scores(session=db, role=Role.INSTRUCTOR) == []


def test_claim_is_a_compare_and_set_and_finish_returns_the_stored_row(db: Session) -> None:
    ada = crud.create_user(session=db, name="ada")
    row = _submission(db, ada)
    now = utcnow()
    lease = now + timedelta(seconds=30)
    (candidate,) = crud.next_candidates(session=db, now=now, max_running=1, max_regrades=1)
    assert (candidate.id, candidate.user_name) == (row.id, "ada")

    def claim(worker: str, token: str, expires: datetime, at: datetime) -> Submission | None:
        return crud.claim_submission(session=db, candidate=candidate, worker=worker,
                                     lease_token=token, lease_expires_at=expires, now=at,
                                     max_running=1, max_regrades=1)

    first = claim("h:1", "a", lease, now)
    assert first is not None and first.attempts == 1 and first.status is SubmissionStatus.RUNNING
    assert first.started_at == now and first.lease_expires_at == lease
    assert claim("h:2", "b", lease, now) is None
    later = lease + timedelta(seconds=1)
    second = claim("h:2", "b", later + timedelta(60), later)
    assert second is not None and second.attempts == 2
    assert crud.finish_submission(session=db, submission_id=row.id, lease_token="a",
                                  values={"message": "stale"}) is None
    stored = crud.finish_submission(session=db, submission_id=row.id, lease_token="b",
                                    values={"message": "fresh"})
    assert stored is not None and stored.status is SubmissionStatus.DONE
    assert stored.message == "fresh" and stored.attempts == 2 and stored.worker == "h:2"
    assert stored.created_at.tzinfo is not None and stored.lease_expires_at is None
    db.refresh(row)
    assert row.status is SubmissionStatus.DONE and row.message == "fresh"


def test_a_learner_at_the_running_limit_is_not_a_candidate(db: Session) -> None:
    ada = crud.create_user(session=db, name="ada")
    bob = crud.create_user(session=db, name="bob")
    now = utcnow()
    running = _submission(db, ada)
    running.status, running.lease_expires_at = SubmissionStatus.RUNNING, now + timedelta(60)
    _submission(db, ada)
    waiting_bob = _submission(db, bob)
    db.flush()
    assert [c.id for c in crud.next_candidates(session=db, now=now, max_running=1,
                                               max_regrades=1)] == [
        waiting_bob.id]
    assert len(crud.next_candidates(session=db, now=now, max_running=2, max_regrades=1)) == 2


def test_list_submissions_filters_and_orders(db: Session) -> None:
    ada = crud.create_user(session=db, name="ada")
    bob = crud.create_user(session=db, name="bob")
    first = _submission(db, ada)
    first.created_at = utcnow() - timedelta(minutes=1)
    second = _submission(db, ada, kind=SubmissionKind.RUN)
    _submission(db, bob)
    _submission(db, ada, exercise="gru-step")
    db.flush()
    rows = crud.list_submissions(session=db, user_id=ada.id, exercise_id="gru-update-gate")
    assert [r.id for r in rows] == [second.id, first.id]
    runs = crud.list_submissions(session=db, user_id=ada.id, kind=SubmissionKind.RUN)
    assert [r.id for r in runs] == [second.id]
    everyone = crud.list_submissions(session=db, exercise_id="gru-update-gate")
    assert len(everyone) == 3
