"""A learner's budget for one exercise (app/services/budgets.py), with fixed clocks: what is
left, which bound refuses a graded submission now, and when the next one is possible."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from app.services.budgets import Budget, Limit, budget_out, day_bounds

NOW = datetime(2026, 12, 2, 10, 0, tzinfo=UTC)
MIDNIGHT = datetime(2026, 12, 3, 0, 0, tzinfo=UTC)


def budget(
    *,
    allowed: int | None = None,
    used: int = 0,
    per_day: int | None = None,
    used_today: int = 0,
    cooldown: timedelta | None = None,
    last_at: datetime | None = None,
) -> Budget:
    return Budget(allowed, used, per_day, used_today, cooldown, last_at, MIDNIGHT, NOW)


def test_a_spent_total_is_final_whatever_else_holds() -> None:
    spent = budget(allowed=3, used=3, per_day=5, cooldown=timedelta(minutes=10), last_at=NOW)
    assert spent.blocked_by is Limit.TOTAL and spent.next_at is None
    assert spent.left == 0 and spent.left_today == 0


def test_the_cooldown_holds_until_it_has_passed_from_the_last_submission() -> None:
    cooling = budget(cooldown=timedelta(minutes=10), last_at=NOW - timedelta(minutes=4))
    assert cooling.blocked_by is Limit.COOLDOWN
    assert cooling.next_at == NOW + timedelta(minutes=6)
    cooled = budget(cooldown=timedelta(minutes=10), last_at=NOW - timedelta(minutes=10))
    assert cooled.blocked_by is None and cooled.next_at is None


def test_the_days_count_holds_until_midnight_or_the_cooldown_if_that_ends_later() -> None:
    daily = budget(per_day=2, used_today=2, allowed=10, used=5)
    assert (daily.blocked_by, daily.next_at, daily.left, daily.left_today) == (
        Limit.PER_DAY,
        MIDNIGHT,
        5,
        0,
    )
    late_in_the_day = budget(
        per_day=2, used_today=2, cooldown=timedelta(hours=17), last_at=NOW - timedelta(hours=1)
    )
    assert late_in_the_day.blocked_by is Limit.COOLDOWN
    assert late_in_the_day.next_at == NOW + timedelta(hours=16)


def test_left_today_never_exceeds_what_is_left_in_all() -> None:
    assert budget(allowed=4, used=3, per_day=5, used_today=0).left_today == 1


def test_the_api_answer_says_when_and_why() -> None:
    answer = budget_out("gru-step", budget(cooldown=timedelta(minutes=10), last_at=NOW))
    assert (answer.blocked_by, answer.retry_after_s, answer.cooldown_s) == ("cooldown", 600, 600)
    assert budget_out("gru-step", None).limited is False


def test_a_day_has_23_or_25_hours_across_a_clock_change() -> None:
    berlin = ZoneInfo("Europe/Berlin")
    start, end = day_bounds(datetime(2026, 10, 25, 12, tzinfo=UTC), berlin)
    assert (start.isoformat(), end.isoformat()) == (
        "2026-10-25T00:00:00+02:00",
        "2026-10-26T00:00:00+01:00",
    )
    assert end.astimezone(UTC) - start.astimezone(UTC) == timedelta(hours=25)
    start, end = day_bounds(datetime(2026, 3, 29, 12, tzinfo=UTC), berlin)
    assert end.astimezone(UTC) - start.astimezone(UTC) == timedelta(hours=23)
