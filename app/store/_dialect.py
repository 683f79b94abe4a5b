"""What SQLite and PostgreSQL do differently, for the store's modules."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from app.models import UTCDateTime


def insert_for(session: Session) -> Callable[..., Any]:
    """The dialect's INSERT, which has ``on_conflict_do_*`` (SQLite and PostgreSQL alike)."""
    return postgresql.insert if session.get_bind().dialect.name == "postgresql" else sqlite.insert


def aware(value: Any) -> datetime:
    """A timestamp read outside its column type, as the column would have returned it."""
    # func.max() and Core RETURNING bypass the column type on SQLite, which may hand back a
    # naive value or text.
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    result = UTCDateTime().process_result_value(value, None)  # type: ignore[arg-type]
    assert result is not None
    return result
