"""Queries: users, tokens, passwords, submissions, best scores, the lease compare-and-sets."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from app import crud
from app.core.security import hash_token
from app.models import ApiToken, Role, SubmissionKind, SubmissionStatus, User, utcnow


def _submission(db: Session, user: User, *, kind: SubmissionKind = SubmissionKind.SUBMIT,
                exercise: str = "gru-update-gate"):  # type: ignore[no-untyped-def]
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
    assert crud.authenticate_password(session=db, name="ada", password="s3cret!") is user
    assert crud.authenticate_password(session=db, name="ada", password="wrong") is None
    assert crud.authenticate_password(session=db, name="nobody", password="s3cret!") is None
    crud.create_user(session=db, name="bob")
    assert crud.authenticate_password(session=db, name="bob", password="") is None


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


def test_claim_is_a_compare_and_set(db: Session) -> None:
    ada = crud.create_user(session=db, name="ada")
    row = _submission(db, ada)
    now = utcnow()
    lease = now + timedelta(seconds=30)
    assert crud.claim_submission(session=db, submission_id=row.id, worker="h:1",
                                 lease_token="a", lease_expires_at=lease, now=now) == 1
    assert crud.claim_submission(session=db, submission_id=row.id, worker="h:2",
                                 lease_token="b", lease_expires_at=lease, now=now) is None
    later = lease + timedelta(seconds=1)
    assert crud.claim_submission(session=db, submission_id=row.id, worker="h:2",
                                 lease_token="b", lease_expires_at=later + timedelta(60),
                                 now=later) == 2
    assert not crud.finish_submission(session=db, submission_id=row.id, lease_token="a",
                                      values={"message": "stale"})
    assert crud.finish_submission(session=db, submission_id=row.id, lease_token="b",
                                  values={"message": "fresh"})
    db.refresh(row)
    assert row.status is SubmissionStatus.DONE and row.message == "fresh"
    assert row.attempts == 2 and row.worker == "h:2"


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
