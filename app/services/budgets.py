"""A learner's submission budget for one exercise: how many graded submissions are left, and
when the next one is possible.

``course.toml`` bounds graded submissions three ways (the schedule's, or an assignment's own):
``submissions`` in all, ``submissions_per_day`` per calendar day of the schedule's time zone,
and ``cooldown_minutes`` between two of them. Every graded submission counts, waiting or
graded: each one can tell a few bits of the hidden cases (docs/security.md). Runs never see a
hidden case and are never counted; instructors have no budget.

The total, once spent, is final (HTTP 403: no retry helps); the day's count and the cooldown
pass (HTTP 429 with Retry-After).
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy.orm import Session

from app.models import User
from app.schemas import SubmissionBudgetOut
from app.store import budgets as budget_store
from graders.api import ExerciseCatalog


class Limit(enum.Enum):
    """Which bound refuses a graded submission now."""

    TOTAL = "total"  # every submission the schedule allows is used: final
    PER_DAY = "per_day"  # the day's are used: possible again at midnight (the schedule's zone)
    COOLDOWN = "cooldown"  # too soon after the last one


@dataclass(frozen=True)
class Budget:
    """A learner's graded submissions to one exercise against the schedule's bounds."""

    allowed: int | None  # in all (None: no total)
    used: int
    per_day: int | None
    used_today: int
    cooldown: timedelta | None
    last_at: datetime | None  # the learner's latest graded submission to the exercise
    day_ends_at: datetime  # the next midnight in the schedule's time zone
    now: datetime

    @property
    def left(self) -> int | None:
        """Graded submissions left in all (None: no total)."""
        return None if self.allowed is None else max(0, self.allowed - self.used)

    @property
    def left_today(self) -> int | None:
        """Left today, the total considered (None: no bound per day)."""
        if self.per_day is None:
            return None
        today = max(0, self.per_day - self.used_today)
        return today if self.left is None else min(today, self.left)

    @property
    def cooldown_ends_at(self) -> datetime | None:
        if self.cooldown is None or self.last_at is None:
            return None
        ends = self.last_at + self.cooldown
        return ends if ends > self.now else None

    @property
    def blocked_by(self) -> Limit | None:
        """The bound that refuses a graded submission now; the one lasting longest."""
        if self.left == 0:
            return Limit.TOTAL
        waits = []
        if self.per_day is not None and self.used_today >= self.per_day:
            waits.append((self.day_ends_at, Limit.PER_DAY))
        if self.cooldown_ends_at is not None:
            waits.append((self.cooldown_ends_at, Limit.COOLDOWN))
        return max(waits, key=lambda wait: wait[0])[1] if waits else None

    @property
    def next_at(self) -> datetime | None:
        """When the next graded submission is possible: None if now, or never (TOTAL)."""
        match self.blocked_by:
            case Limit.PER_DAY:
                cooldown_ends = self.cooldown_ends_at
                return max(self.day_ends_at, cooldown_ends or self.day_ends_at)
            case Limit.COOLDOWN:
                return self.cooldown_ends_at
            case _:
                return None


def day_bounds(now: datetime, zone: ZoneInfo) -> tuple[datetime, datetime]:
    """The midnights in ``zone`` before and after ``now`` (a day of 23 or 25 hours too)."""
    today = now.astimezone(zone).date()
    tomorrow = today + timedelta(days=1)
    return (
        datetime(today.year, today.month, today.day, tzinfo=zone),
        datetime(tomorrow.year, tomorrow.month, tomorrow.day, tzinfo=zone),
    )


def submission_budget(
    *, session: Session, catalog: ExerciseCatalog, user: User, exercise_id: str, now: datetime
) -> Budget | None:
    """The learner's budget for the exercise (None: no bound, or an instructor)."""
    if user.is_instructor:
        return None
    schedule = catalog.schedule()
    allowed, pace = schedule.submission_budget(exercise_id), schedule.pace_of(exercise_id)
    if allowed is None and not pace:
        return None
    starts, ends = day_bounds(now, schedule.zone)
    counted = budget_store.graded_count(
        session=session, user_id=user.id, exercise_id=exercise_id, since=starts
    )
    return Budget(
        allowed,
        counted.total,
        pace.per_day,
        counted.since,
        pace.cooldown,
        counted.last_at,
        ends,
        now,
    )


def limits_apply(catalog: ExerciseCatalog, user: User, exercise_id: str) -> bool:
    """Whether any bound applies to ``user``'s graded submissions to the exercise."""
    schedule = catalog.schedule()
    return not user.is_instructor and (
        schedule.submission_budget(exercise_id) is not None or bool(schedule.pace_of(exercise_id))
    )


def budget_out(exercise_id: str, budget: Budget | None) -> SubmissionBudgetOut:
    if budget is None:
        return SubmissionBudgetOut(exercise=exercise_id, limited=False)
    blocked, next_at = budget.blocked_by, budget.next_at
    return SubmissionBudgetOut(
        exercise=exercise_id,
        limited=True,
        allowed=budget.allowed,
        used=budget.used,
        left=budget.left,
        per_day=budget.per_day,
        left_today=budget.left_today,
        cooldown_s=budget.cooldown.total_seconds() if budget.cooldown is not None else None,
        blocked_by=blocked.value if blocked is not None else None,
        next_at=next_at,
        retry_after_s=(
            max(1, math.ceil((next_at - budget.now).total_seconds()))
            if next_at is not None
            else None
        ),
    )
