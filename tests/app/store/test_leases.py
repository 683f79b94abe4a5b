"""The lease: the claim is a compare-and-set, the running limit holds."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from app.models import Submission, SubmissionStatus, utcnow
from app.store import accounts as account_store
from app.store import leases as lease_store
from tests.app.store.helpers import add_submission


def test_claim_is_a_compare_and_set_and_finish_returns_the_stored_row(db: Session) -> None:
    ada = account_store.create_user(session=db, name="ada")
    row = add_submission(db, ada)
    now = utcnow()
    lease = now + timedelta(seconds=30)
    (candidate,) = lease_store.next_candidates(session=db, now=now, max_running=1, max_regrades=1)
    assert (candidate.id, candidate.user_name) == (row.id, "ada")

    def claim(worker: str, token: str, expires: datetime, at: datetime) -> Submission | None:
        return lease_store.claim_submission(session=db, candidate=candidate, worker=worker,
                                            lease_token=token, lease_expires_at=expires, now=at,
                                            max_running=1, max_regrades=1)

    first = claim("h:1", "a", lease, now)
    assert first is not None and first.attempts == 1 and first.status is SubmissionStatus.RUNNING
    assert first.started_at == now and first.lease_expires_at == lease
    assert claim("h:2", "b", lease, now) is None
    later = lease + timedelta(seconds=1)
    second = claim("h:2", "b", later + timedelta(60), later)
    assert second is not None and second.attempts == 2
    assert lease_store.finish_submission(session=db, submission_id=row.id, lease_token="a",
                                         values={"message": "stale"}) is None
    stored = lease_store.finish_submission(session=db, submission_id=row.id, lease_token="b",
                                           values={"message": "fresh"})
    assert stored is not None and stored.status is SubmissionStatus.DONE
    assert stored.message == "fresh" and stored.attempts == 2 and stored.worker == "h:2"
    assert stored.created_at.tzinfo is not None and stored.lease_expires_at is None
    db.refresh(row)
    assert row.status is SubmissionStatus.DONE and row.message == "fresh"


def test_a_learner_at_the_running_limit_is_not_a_candidate(db: Session) -> None:
    ada = account_store.create_user(session=db, name="ada")
    bob = account_store.create_user(session=db, name="bob")
    now = utcnow()
    running = add_submission(db, ada)
    running.status, running.lease_expires_at = SubmissionStatus.RUNNING, now + timedelta(60)
    add_submission(db, ada)
    waiting_bob = add_submission(db, bob)
    db.flush()
    assert [c.id for c in lease_store.next_candidates(session=db, now=now, max_running=1,
                                                      max_regrades=1)] == [
        waiting_bob.id]
    assert len(lease_store.next_candidates(session=db, now=now, max_running=2, max_regrades=1)) == 2
