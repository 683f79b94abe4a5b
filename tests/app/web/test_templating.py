"""app/web/templating.py: the pages' filters."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from app.web.templating import format_time


def test_times_are_shown_to_the_second_in_utc() -> None:
    tokyo = timezone(timedelta(hours=9))
    assert format_time(datetime(2026, 12, 1, 7, 5, 7, 900_000, tzinfo=tokyo)) == (
        "2026-11-30 22:05:07 UTC"
    )
    assert format_time(datetime(2026, 11, 30, 22, 5, 8, tzinfo=UTC)) != format_time(
        datetime(2026, 11, 30, 22, 5, 7, tzinfo=UTC)
    )
    assert format_time(None) == "–"
