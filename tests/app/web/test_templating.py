"""app/web/templating.py: the pages' filters."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import Any
from zoneinfo import ZoneInfo

from app.web.templating import templates


def when(value: datetime | None, **context: Any) -> str:
    return templates.env.from_string("{{ value|when }}").render(value=value, **context)


def test_times_are_shown_to_the_second_in_the_course_zone() -> None:
    moment = datetime(2026, 12, 1, 7, 5, 7, 900_000, tzinfo=timezone(timedelta(hours=9)))
    assert when(moment, zone=ZoneInfo("Europe/Berlin")) == "2026-11-30 23:05:07 CET"
    assert when(moment, zone=ZoneInfo("Asia/Tokyo")) == "2026-12-01 07:05:07 JST"
    assert when(moment) == "2026-11-30 22:05:07 UTC"  # a page outside any course
    assert when(datetime(2026, 11, 30, 22, 5, 8, tzinfo=UTC)) != when(
        datetime(2026, 11, 30, 22, 5, 7, tzinfo=UTC)
    )
    assert when(None) == "–"
