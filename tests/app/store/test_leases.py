"""The grading lease against a real database: the claim is a compare-and-set, and the claim's
fairness policy (app/store/leases.py states it), one rule a test."""

from __future__ import annotations

import threading
import time
from datetime import datetime, timedelta

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.orm import Session

from app.core.db import get_engine
from app.models import Submission, SubmissionStatus, User, utcnow
from app.store import accounts as account_store
from app.store import leases as lease_store
from tests.app.conftest import wipe
from tests.app.store.helpers import add_submission

MINUTE = timedelta(minutes=1)


def _row(
    db: Session,
    user: User,
    *,
    created: datetime,
    status: SubmissionStatus = SubmissionStatus.QUEUED,
    regrade: bool = False,
    started: datetime | None = None,
    lease: datetime | None = None,
    token: str | None = None,
) -> Submission:
    """A submission of ``user`` in the given state (flushed)."""
    row = add_submission(db, user)
    row.created_at, row.status, row.regrade = created, status, regrade
    row.started_at, row.lease_expires_at, row.lease_token = started, lease, token
    db.flush()
    return row


def _order(db: Session, now: datetime, *, max_running: int = 1, max_regrades: int = 1) -> list[str]:
    return [
        c.id
        for c in lease_store.next_candidates(
            session=db, now=now, max_running=max_running, max_regrades=max_regrades
        )
    ]


def _claim(
    db: Session,
    row: Submission,
    now: datetime,
    *,
    token: str = "t",
    max_running: int = 1,
    max_regrades: int = 1,
) -> Submission | None:
    candidate = lease_store.Candidate(row.id, row.user_id, row.exercise_id, "")
    return lease_store.claim_submission(
        session=db,
        candidate=candidate,
        worker="h:1",
        lease_token=token,
        lease_expires_at=now + MINUTE,
        now=now,
        max_running=max_running,
        max_regrades=max_regrades,
    )


def test_claim_is_a_compare_and_set_and_finish_returns_the_stored_row(db: Session) -> None:
    ada = account_store.create_user(session=db, name="ada")
    row = add_submission(db, ada)
    now = utcnow()
    lease = now + timedelta(seconds=30)
    (candidate,) = lease_store.next_candidates(session=db, now=now, max_running=1, max_regrades=1)
    assert (candidate.id, candidate.user_name) == (row.id, "ada")

    def claim(worker: str, token: str, expires: datetime, at: datetime) -> Submission | None:
        return lease_store.claim_submission(
            session=db,
            candidate=candidate,
            worker=worker,
            lease_token=token,
            lease_expires_at=expires,
            now=at,
            max_running=1,
            max_regrades=1,
        )

    first = claim("h:1", "a", lease, now)
    assert first is not None and first.attempts == 1 and first.status is SubmissionStatus.RUNNING
    assert first.started_at == now and first.lease_expires_at == lease
    assert claim("h:2", "b", lease, now) is None
    later = lease + timedelta(seconds=1)
    second = claim("h:2", "b", later + timedelta(60), later)
    assert second is not None and second.attempts == 2
    assert (
        lease_store.finish_submission(
            session=db, submission_id=row.id, lease_token="a", values={"message": "stale"}
        )
        is None
    )
    stored = lease_store.finish_submission(
        session=db, submission_id=row.id, lease_token="b", values={"message": "fresh"}
    )
    assert stored is not None and stored.status is SubmissionStatus.DONE
    assert stored.message == "fresh" and stored.attempts == 2 and stored.worker == "h:2"
    assert stored.created_at.tzinfo is not None and stored.lease_expires_at is None
    db.refresh(row)
    assert row.status is SubmissionStatus.DONE and row.message == "fresh"


# --- how many run at once ---------------------------------------------------------------------


def test_a_learner_at_the_running_limit_is_not_a_candidate(db: Session) -> None:
    ada = account_store.create_user(session=db, name="ada")
    bob = account_store.create_user(session=db, name="bob")
    now = utcnow()
    _row(
        db,
        ada,
        created=now - 3 * MINUTE,
        status=SubmissionStatus.RUNNING,
        started=now - MINUTE,
        lease=now + MINUTE,
    )
    waiting_ada = _row(db, ada, created=now - 2 * MINUTE)
    waiting_bob = _row(db, bob, created=now - MINUTE)
    assert _order(db, now, max_running=1) == [waiting_bob.id]
    assert set(_order(db, now, max_running=2)) == {waiting_ada.id, waiting_bob.id}
    assert _order(db, now, max_running=0) == []  # the learners' lane is full


def test_the_claim_checks_the_running_limit_again(db: Session) -> None:
    # A list holds only the learner's oldest row, but a claim from a list read before (or on
    # another machine) may name the other: the first claim uses the learner's one place.
    ada = account_store.create_user(session=db, name="ada")
    now = utcnow()
    first = _row(db, ada, created=now - 2 * MINUTE)
    second = _row(db, ada, created=now - MINUTE)
    assert _order(db, now, max_running=1) == [first.id]
    assert _claim(db, first, now, token="a") is not None
    assert _claim(db, second, now, token="b") is None
    db.refresh(second)
    assert second.status is SubmissionStatus.QUEUED and second.attempts == 0


def test_a_running_regrade_takes_no_place_of_its_learner(db: Session) -> None:
    ada = account_store.create_user(session=db, name="ada")
    now = utcnow()
    _row(
        db,
        ada,
        created=now - 2 * MINUTE,
        status=SubmissionStatus.RUNNING,
        regrade=True,
        started=now - MINUTE,
        lease=now + MINUTE,
    )
    own = _row(db, ada, created=now - MINUTE)
    assert _order(db, now, max_running=1) == [own.id]
    assert _claim(db, own, now, max_running=1) is not None


def test_regrades_run_at_most_max_regrades_at_once_on_every_worker(db: Session) -> None:
    ada = account_store.create_user(session=db, name="ada")
    bob = account_store.create_user(session=db, name="bob")
    now = utcnow()
    _row(
        db,
        bob,
        created=now - 2 * MINUTE,
        status=SubmissionStatus.RUNNING,
        regrade=True,
        started=now - MINUTE,
        lease=now + MINUTE,
    )
    waiting = _row(db, ada, created=now - MINUTE, regrade=True)
    assert _order(db, now, max_regrades=1) == []
    assert _claim(db, waiting, now, max_regrades=1) is None
    assert _order(db, now, max_regrades=2) == [waiting.id]
    assert _claim(db, waiting, now, max_regrades=2) is not None


# --- who goes first ---------------------------------------------------------------------------


def test_learners_own_work_comes_before_regrades(db: Session) -> None:
    # The regrade is older and its learner never served: only the rule puts it last.
    ada = account_store.create_user(session=db, name="ada")
    bob = account_store.create_user(session=db, name="bob")
    now = utcnow()
    regrade = _row(db, ada, created=now - 3 * MINUTE, regrade=True)
    _row(db, bob, created=now - 3 * MINUTE, status=SubmissionStatus.DONE, started=now - MINUTE)
    own = _row(db, bob, created=now - MINUTE)
    assert _order(db, now) == [own.id, regrade.id]


def test_the_learner_with_fewest_in_flight_comes_first(db: Session) -> None:
    # ada was served longest ago and waits longest: only her grading in flight puts her second.
    ada = account_store.create_user(session=db, name="ada")
    bob = account_store.create_user(session=db, name="bob")
    now = utcnow()
    _row(
        db,
        ada,
        created=now - 20 * MINUTE,
        status=SubmissionStatus.RUNNING,
        started=now - 10 * MINUTE,
        lease=now + MINUTE,
    )
    _row(db, bob, created=now - 20 * MINUTE, status=SubmissionStatus.DONE, started=now - MINUTE)
    ada_waiting = _row(db, ada, created=now - 5 * MINUTE)
    bob_waiting = _row(db, bob, created=now - MINUTE)
    assert _order(db, now, max_running=2) == [bob_waiting.id, ada_waiting.id]


def test_the_learner_served_longest_ago_comes_first(db: Session) -> None:
    # Round robin: never served first, then the oldest last start; not the oldest submission.
    ada, bob, cy = (account_store.create_user(session=db, name=n) for n in ("ada", "bob", "cy"))
    now = utcnow()
    _row(db, ada, created=now - 30 * MINUTE, status=SubmissionStatus.DONE, started=now - MINUTE)
    _row(
        db, bob, created=now - 30 * MINUTE, status=SubmissionStatus.DONE, started=now - 10 * MINUTE
    )
    rows = [
        _row(db, user, created=now - age * MINUTE) for user, age in ((ada, 3), (bob, 2), (cy, 1))
    ]
    assert _order(db, now) == [rows[2].id, rows[1].id, rows[0].id]


def test_a_learners_oldest_submission_is_their_one_candidate(db: Session) -> None:
    # Stored newest first, so neither the storage order nor the ids give the answer.
    ada = account_store.create_user(session=db, name="ada")
    now = utcnow()
    rows = [_row(db, ada, created=now - age * MINUTE) for age in range(1, 7)]
    assert _order(db, now, max_running=2) == [rows[-1].id]


def test_a_flood_fills_no_candidate_list(db: Session) -> None:
    # Another machine claiming the flooding learner first must not cost the whole list.
    now = utcnow()
    flood = account_store.create_user(session=db, name="flood")
    for age in range(20, 10, -1):
        _row(db, flood, created=now - age * MINUTE)
    others = [
        _row(db, account_store.create_user(session=db, name=f"l{i}"), created=now) for i in range(3)
    ]
    candidates = lease_store.next_candidates(session=db, now=now, max_running=1, max_regrades=1)
    assert len(candidates) == 4 and {c.id for c in others} < {c.id for c in candidates}


# --- expired and lost leases ------------------------------------------------------------------


def test_a_running_row_is_in_flight_until_its_lease_expires_then_claimable(db: Session) -> None:
    ada = account_store.create_user(session=db, name="ada")
    now = utcnow()
    expiry = now + MINUTE
    running = _row(
        db,
        ada,
        created=now - 2 * MINUTE,
        status=SubmissionStatus.RUNNING,
        started=now - MINUTE,
        lease=expiry,
        token="old",
    )
    waiting = _row(db, ada, created=now - MINUTE)
    # At its expiry the lease still holds: the row is in flight and not claimable.
    assert _order(db, expiry, max_running=1) == []
    assert _order(db, expiry, max_running=2) == [waiting.id]
    # Once expired it is neither: it is the learner's oldest claimable row, their candidate.
    later = expiry + timedelta(microseconds=1)
    assert _order(db, later, max_running=1) == [running.id]
    again = _claim(db, running, later, token="new")
    assert again is not None and again.lease_token == "new" and again.attempts == 1
    assert again.started_at == later


def test_a_lost_lease_can_neither_finish_nor_release_the_row(db: Session) -> None:
    ada = account_store.create_user(session=db, name="ada")
    now = utcnow()
    row = _row(db, ada, created=now - MINUTE)
    assert _claim(db, row, now, token="old") is not None
    later = now + 2 * MINUTE
    assert _claim(db, row, later, token="new") is not None
    assert not lease_store.release_submission(
        session=db, submission_id=row.id, lease_token="old", lease_expires_at=later
    )
    assert (
        lease_store.finish_submission(
            session=db, submission_id=row.id, lease_token="old", values={"message": "stale"}
        )
        is None
    )
    db.refresh(row)
    assert (row.status, row.lease_token, row.message) == (SubmissionStatus.RUNNING, "new", "")
    assert lease_store.release_submission(
        session=db, submission_id=row.id, lease_token="new", lease_expires_at=later
    )
    db.refresh(row)
    assert (row.status, row.lease_token) == (SubmissionStatus.QUEUED, None)


def test_a_finished_row_is_never_claimed_finished_or_requeued_again(db: Session) -> None:
    ada = account_store.create_user(session=db, name="ada")
    now = utcnow()
    row = _row(db, ada, created=now - MINUTE)
    assert _claim(db, row, now, token="a") is not None
    assert (
        lease_store.finish_submission(
            session=db, submission_id=row.id, lease_token="a", values={"message": "done"}
        )
        is not None
    )
    assert _order(db, now + MINUTE) == []
    assert _claim(db, row, now + 2 * MINUTE) is None
    assert (
        lease_store.finish_submission(
            session=db, submission_id=row.id, lease_token=None, values={"message": "again"}
        )
        is None
    )
    assert not lease_store.requeue_submission(
        session=db, submission_id=row.id, seen_lease=None, lease_expires_at=now
    )
    db.refresh(row)
    assert (row.status, row.message) == (SubmissionStatus.DONE, "done")


def test_requeue_is_a_compare_and_set_on_the_lease_seen(db: Session) -> None:
    ada = account_store.create_user(session=db, name="ada")
    now = utcnow()
    row = _row(
        db,
        ada,
        created=now - 2 * MINUTE,
        status=SubmissionStatus.RUNNING,
        started=now - 2 * MINUTE,
        lease=now - MINUTE,
        token="t",
    )
    seen = row.lease_expires_at
    assert lease_store.requeue_submission(
        session=db, submission_id=row.id, seen_lease=seen, lease_expires_at=now + MINUTE
    )
    # A second recovery pass that read the row before the first requeued it does nothing.
    assert not lease_store.requeue_submission(
        session=db, submission_id=row.id, seen_lease=seen, lease_expires_at=now + MINUTE
    )
    db.refresh(row)
    assert (row.status, row.lease_token, row.lease_expires_at) == (
        SubmissionStatus.QUEUED,
        None,
        now + MINUTE,
    )


# --- two workers at once ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "database_url", [pytest.param("postgresql", marks=pytest.mark.slow)], indirect=True
)
def test_two_workers_cannot_both_take_a_learners_last_place(database_url: str) -> None:
    """Worker two's claim skips the learner worker one is claiming (it does not wait for the
    learner's lock), and takes nothing.

    (SQLite runs one writer at a time, so only PostgreSQL can interleave two claims.)
    """
    engine = get_engine(database_url)
    now = utcnow()
    try:
        with Session(engine, expire_on_commit=False) as setup:
            ada = account_store.create_user(session=setup, name="ada")
            first = _row(setup, ada, created=now - 2 * MINUTE)
            second = _row(setup, ada, created=now - MINUTE)
            setup.commit()
        with Session(engine) as one, Session(engine) as two:
            pid = two.execute(text("SELECT pg_backend_pid()")).scalar_one()
            assert _claim(one, first, now, token="one") is not None  # not committed yet
            result: list[Submission | None] = []
            worker = threading.Thread(
                target=lambda: result.append(_claim(two, second, now, token="two"))
            )
            worker.start()
            _wait_until_blocked(engine, pid, worker)
            one.commit()
            worker.join(timeout=30)
            two.commit()
        assert result == [None]
    finally:
        wipe(database_url)


def _wait_until_blocked(engine: Engine, pid: int, worker: threading.Thread) -> None:
    """Return once backend ``pid`` waits for a lock (or ``worker`` ended without waiting)."""
    deadline = time.monotonic() + 10
    with Session(engine) as watcher:
        while worker.is_alive() and time.monotonic() < deadline:
            waiting = watcher.scalar(
                text("SELECT wait_event_type FROM pg_stat_activity WHERE pid = :pid"), {"pid": pid}
            )
            watcher.rollback()  # a fresh snapshot of pg_stat_activity on every look
            if waiting == "Lock":
                return
            time.sleep(0.02)


def test_unsent_wake_ups_make_only_the_named_queued_rows_due_now(db: Session) -> None:
    ada = account_store.create_user(session=db, name="ada")
    now = utcnow()
    later = now + MINUTE
    unsent = _row(db, ada, created=now, lease=later)
    running = _row(db, ada, created=now, status=SubmissionStatus.RUNNING, lease=later)
    not_named = _row(db, ada, created=now, lease=later)
    lease_store.mark_unsent(session=db, submission_ids=[unsent.id, running.id], now=now)
    db.expire_all()
    assert [r.lease_expires_at for r in (unsent, running, not_named)] == [now, later, later]
