"""app/web/templating.py: the pages' filters."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import Any
from zoneinfo import ZoneInfo

from app.web.i18n import translator
from app.web.templating import templates


def when(value: datetime | None, **context: Any) -> str:
    return templates.env.from_string("{{ value|when }}").render(value=value, **context)


def test_times_are_shown_to_the_second_in_the_schedule_zone() -> None:
    moment = datetime(2026, 12, 1, 7, 5, 7, 900_000, tzinfo=timezone(timedelta(hours=9)))
    assert when(moment, zone=ZoneInfo("Europe/Berlin")) == "2026-11-30 23:05:07 CET"
    assert when(moment, zone=ZoneInfo("Asia/Tokyo")) == "2026-12-01 07:05:07 JST"
    assert when(moment) == "2026-11-30 22:05:07 UTC"  # a page outside any course
    assert when(datetime(2026, 11, 30, 22, 5, 8, tzinfo=UTC)) != when(
        datetime(2026, 11, 30, 22, 5, 7, tzinfo=UTC)
    )
    assert when(None) == "–"


def left(delta: timedelta, lang: str = "en") -> str:
    return templates.env.from_string("{{ delta|time_left }}").render(
        delta=delta, _=translator(lang)
    )


def test_time_left_says_days_hours_and_minutes_and_minutes_alone_under_an_hour() -> None:
    assert left(timedelta(days=9, hours=5, minutes=29, seconds=59)) == "9 d 5 h 29 min left"
    assert left(timedelta(hours=3, minutes=0, seconds=30)) == "3 h 0 min left"
    assert left(timedelta(minutes=14, seconds=50)) == "14 min left"  # was "0 d 0 h left"
    assert left(timedelta(seconds=59)) == "less than a minute left"
    assert left(timedelta(days=1, minutes=7), "ja") == "残り 1 日 0 時間 7 分"
    assert left(timedelta(minutes=14), "ja") == "残り 14 分"
