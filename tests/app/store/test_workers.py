"""Workers: which grading processes are alive, and the queue's backlog for the health check."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy.orm import Session

from app.models import SubmissionStatus, Worker, utcnow
from app.store import accounts as account_store
from app.store import workers as worker_store
from tests.app.store.helpers import add_submission


def test_live_workers_are_those_heard_since_and_workers_silent_an_hour_longer_are_removed(
    db: Session,
) -> None:
    now = utcnow()
    since = now - timedelta(seconds=30)
    for worker, heard in (
        ("h:1", now),
        ("h:2", since),
        ("h:3", since - timedelta(minutes=10)),
        ("h:4", since - timedelta(hours=2)),
    ):
        worker_store.beat(
            session=db, worker=worker, threads=2, started_at=heard, now=heard, canary=None
        )
    live = worker_store.live_workers(session=db, since=since)
    assert sorted(w.id for w in live) == ["h:1", "h:2"]
    db.expire_all()
    assert db.get(Worker, "h:3") is not None  # silent, but not for long: kept
    assert db.get(Worker, "h:4") is None


def test_the_backlog_counts_queued_rows_and_tells_the_oldest(db: Session) -> None:
    assert worker_store.queued_backlog(session=db) == (0, None)
    ada = account_store.create_user(session=db, name="ada")
    now = utcnow()
    newer, older, running = (add_submission(db, ada) for _ in range(3))
    newer.created_at = now - timedelta(minutes=5)
    older.created_at = now - timedelta(minutes=10)
    running.created_at, running.status = now - timedelta(hours=1), SubmissionStatus.RUNNING
    db.flush()
    count, oldest = worker_store.queued_backlog(session=db)
    assert (count, oldest) == (2, older.created_at)
    assert oldest is not None and oldest.tzinfo is not None
