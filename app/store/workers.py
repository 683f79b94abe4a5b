"""Grading processes: their heartbeats, and the queue backlog the health check reports."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from app.models import Submission, SubmissionStatus, Worker
from app.store._dialect import aware


def beat(
    *,
    session: Session,
    worker: str,
    threads: int,
    started_at: datetime,
    now: datetime,
    canary: tuple[datetime, bool, str] | None,
) -> None:
    """Insert or refresh ``worker``'s heartbeat (and its latest canary, if one ran)."""
    row = session.get(Worker, worker)
    if row is None:
        row = Worker(
            id=worker, threads=threads, started_at=started_at, heartbeat_at=now, canary_message=""
        )
        session.add(row)
    row.heartbeat_at = now
    if canary is not None:
        row.canary_at, row.canary_ok, row.canary_message = canary
    session.flush()


def forget_worker(*, session: Session, worker: str) -> None:
    session.execute(delete(Worker).where(Worker.id == worker))


def live_workers(*, session: Session, since: datetime) -> Sequence[Worker]:
    """Workers whose last heartbeat is at or after ``since``; older rows are removed."""
    session.execute(delete(Worker).where(Worker.heartbeat_at < since - timedelta(hours=1)))
    return session.scalars(select(Worker).where(Worker.heartbeat_at >= since)).all()


def forget_silent_workers(*, session: Session, silent_since: datetime) -> None:
    session.execute(delete(Worker).where(Worker.heartbeat_at < silent_since))


def queued_backlog(*, session: Session) -> tuple[int, datetime | None]:
    """Queued rows and the creation time of the oldest."""
    count, oldest = session.execute(
        select(func.count(), func.min(Submission.created_at)).where(
            Submission.status == SubmissionStatus.QUEUED
        )
    ).one()
    return int(count or 0), aware(oldest) if oldest is not None else None
