"""Rate-limit counters: hits per key and fixed time window (app/services/throttle.py)."""

from __future__ import annotations

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from app.models import ThrottleCounter
from app.store._dialect import insert_for


def count_hit(
    *, session: Session, key_hash: str, window_start: int, window_end: int, hits: int = 1
) -> int:
    """Add ``hits`` to a key's counter in a window (one atomic upsert); the new total."""
    statement = insert_for(session)(ThrottleCounter).values(
        key_hash=key_hash, window_start=window_start, window_end=window_end, hits=hits
    )
    statement = statement.on_conflict_do_update(
        index_elements=["key_hash", "window_start"],
        set_={"hits": ThrottleCounter.hits + statement.excluded.hits},
    ).returning(ThrottleCounter.hits)
    return int(session.execute(statement).scalar_one())


def get_hits(*, session: Session, key_hash: str, window_start: int) -> int:
    hits = session.scalars(
        select(ThrottleCounter.hits).where(
            ThrottleCounter.key_hash == key_hash, ThrottleCounter.window_start == window_start
        )
    ).one_or_none()
    return hits or 0


def delete_hits(*, session: Session, key_hash: str | None = None, now: int | None = None) -> None:
    """Forget a key's counters, or every counter no longer counted at ``now``: one whose
    window and the window after it are over (a throttle counts the previous window too)."""
    query = delete(ThrottleCounter)
    if key_hash is not None:
        query = query.where(ThrottleCounter.key_hash == key_hash)
    if now is not None:
        length = ThrottleCounter.window_end - ThrottleCounter.window_start
        query = query.where(ThrottleCounter.window_end < now - length)
    session.execute(query.execution_options(synchronize_session=False))
