"""The standings' rules, pure over graded attempts: what the schedule counts of each exercise and
assignment for one learner, and how its points are rounded.

Lateness is derived, never stored: a due time moved in ``course.toml`` or an extension granted
later re-scores work already sent. Among a learner's attempts at an exercise the schedule counts
the best share of its points after the late policy; among equal shares an on-time attempt, then
the earliest. An attempt keeps the share its own version's maximum gives it, so between an
exercise edit and the end of its regrade an exercise is shown as regrading, with the maximum
that graded the counted attempt and the current version's.
"""

from __future__ import annotations

import enum
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from app.store.submissions import GradedAttempt
from graders.api import Assignment, LatePolicy

POINT_DECIMALS = 2
"""Points everywhere (pages, CSVs, the archive, the API, the LMS) are rounded to this many
decimals, once, here."""


def rounded(value: float) -> float:
    """Points as every surface reports them (``POINT_DECIMALS``; never ``-0``)."""
    return round(value, POINT_DECIMALS) + 0.0


def format_points(value: float) -> str:
    """Points as text: ``rounded``, without trailing zeros (``2.5``, ``0.33``, ``27``)."""
    return f"{rounded(value):.{POINT_DECIMALS}f}".rstrip("0").rstrip(".")


class AssignmentState(enum.Enum):
    UPCOMING = "upcoming"  # not open yet
    OPEN = "open"  # open, before the (learner's own) due time
    LATE = "late"  # past due; late work still scores something
    CLOSED = "closed"  # past due; late work is graded but scores nothing


class RegradeState(enum.Enum):
    """Why an exercise's standing is not final: some of the learner's work there was graded by
    an earlier version of the exercise."""

    QUEUED = "queued"  # queued for a regrade, which has not reached all of it yet
    NOT_QUEUED = "not_queued"  # the exercise changed and no regrade was started


@dataclass(frozen=True)
class CurrentVersion:
    """An exercise's version now, and its points (None: it does not prepare; only looked up
    when some work was graded by another version)."""

    version: str
    max_score: float | None = None


@dataclass(frozen=True)
class Regrade:
    """A regrade in progress: the counted attempt's maximum and the current version's."""

    state: RegradeState
    graded_max: float  # the maximum the counted attempt was graded out of
    current_max: float | None  # the current version's (None: unknown, it does not prepare)


@dataclass(frozen=True)
class ScoreChange:
    """What a finished regrade changed in the points the schedule counts."""

    before: float  # points before the regrade (rounded)
    after: float  # points now (rounded)


def state_at(assignment: Assignment, due: datetime, now: datetime) -> AssignmentState:
    if now < assignment.opens:
        return AssignmentState.UPCOMING
    if now <= due:
        return AssignmentState.OPEN
    return AssignmentState.LATE if assignment.late.factor(now, due) > 0 else AssignmentState.CLOSED


@dataclass(frozen=True)
class Deadline:
    """The due time an exercise's work is measured against (None for practice work, which is
    never late) and the policy for work after it."""

    due: datetime | None = None
    late: LatePolicy | None = None

    def factor(self, submitted: datetime) -> float:
        if self.due is None or self.late is None:
            return 1.0
        return self.late.factor(submitted, self.due)

    def is_late(self, submitted: datetime) -> bool:
        return self.due is not None and submitted > self.due


def kept_share(deadline: Deadline, score: float, max_score: float, submitted: datetime) -> float:
    """A score's share of its maximum after the late policy (0 to 1)."""
    return score / max_score * deadline.factor(submitted) if max_score else 0.0


def counted_attempt(deadline: Deadline, attempts: Iterable[GradedAttempt]) -> GradedAttempt | None:
    """The attempt the schedule counts: the best share after the late policy; among equal shares
    an on-time attempt, then the earliest (None: no attempt)."""
    return max(
        attempts,
        key=lambda a: (
            kept_share(deadline, a.score, a.max_score, a.created_at),
            not deadline.is_late(a.created_at),
            -a.created_at.timestamp(),
        ),
        default=None,
    )


@dataclass(frozen=True)
class ExerciseStanding:
    exercise_id: str
    title: str
    weight: float  # the exercise's points in its assignment (practice: its own maximum)
    share: float  # the counted share of the exercise's points, late policy applied (0 to 1)
    late: bool  # the counted attempt came after the learner's due time
    attempts: int
    counted: GradedAttempt | None = None
    regrade: Regrade | None = None  # some work graded by an earlier version
    change: ScoreChange | None = None  # a finished regrade changed the points
    latest: datetime | None = None  # the learner's latest graded attempt
    completed_at: datetime | None = None  # the first attempt the schedule counts in full

    @property
    def points(self) -> float:
        """The points the schedule counts, rounded."""
        return rounded(self.weight * self.share)

    @property
    def complete(self) -> bool:
        return self.share >= 1.0

    @property
    def score(self) -> float | None:
        """The counted share in the exercise's own points (of ``max_score``), rounded; None
        before the first graded attempt."""
        return None if self.counted is None else rounded(self.share * self.counted.max_score)

    @property
    def max_score(self) -> float | None:
        """The maximum the counted attempt was graded out of."""
        return None if self.counted is None else rounded(self.counted.max_score)


def _regrade(
    attempts: Sequence[GradedAttempt], counted: GradedAttempt | None, current: CurrentVersion
) -> Regrade | None:
    stale = [a for a in attempts if a.regrading or a.exercise_version != current.version]
    if not stale or counted is None:
        return None
    state = RegradeState.QUEUED if any(a.regrading for a in stale) else RegradeState.NOT_QUEUED
    current_max = None if current.max_score is None else rounded(current.max_score)
    return Regrade(state, rounded(counted.max_score), current_max)


def _change(
    before: Sequence[GradedAttempt], deadline: Deadline, weight: float | None, after: float
) -> ScoreChange | None:
    """What the points were before the latest regrade of each attempt, when that differs."""
    earlier = counted_attempt(deadline, before)
    if earlier is None:
        return None
    points_of = weight if weight is not None else earlier.max_score
    then = rounded(
        kept_share(deadline, earlier.score, earlier.max_score, earlier.created_at) * points_of
    )
    return None if then == after else ScoreChange(then, after)


def _before_regrade(attempts: Sequence[GradedAttempt]) -> list[GradedAttempt]:
    """The attempts with the reports their latest regrade replaced."""
    return [
        a
        if a.earlier is None
        else replace(a, score=a.earlier[0], max_score=a.earlier[1], earlier=None)
        for a in attempts
    ]


def exercise_standing(
    exercise_id: str,
    title: str,
    attempts: Sequence[GradedAttempt],
    deadline: Deadline,
    current: CurrentVersion | None,
    weight: float | None = None,
) -> ExerciseStanding:
    """One learner's standing in one exercise from their graded attempts at it; ``weight``:
    its points in an assignment (None for practice: the counted attempt's maximum)."""
    counted = counted_attempt(deadline, attempts)
    share = (
        0.0
        if counted is None
        else kept_share(deadline, counted.score, counted.max_score, counted.created_at)
    )
    points_of = weight if weight is not None else (counted.max_score if counted else 0.0)
    regrade = None if current is None else _regrade(attempts, counted, current)
    after = rounded(share * points_of)
    finished = regrade is None and any(a.earlier is not None for a in attempts)
    change = _change(_before_regrade(attempts), deadline, weight, after) if finished else None
    return ExerciseStanding(
        exercise_id,
        title,
        points_of,
        share,
        counted is not None and deadline.is_late(counted.created_at),
        len(attempts),
        counted,
        regrade,
        change,
        max((a.created_at for a in attempts), default=None),
        min(
            (
                a.created_at
                for a in attempts
                if kept_share(deadline, a.score, a.max_score, a.created_at) >= 1.0
            ),
            default=None,
        ),
    )


@dataclass(frozen=True)
class AssignmentStanding:
    assignment: Assignment
    due: datetime  # the learner's own: the assignment's, or their extension
    extended: bool
    state: AssignmentState
    exercises: tuple[ExerciseStanding, ...]
    budget: int | None = None  # graded submissions per exercise (None: no limit)

    @property
    def score(self) -> float:
        """The points the schedule counts, summed before rounding."""
        return rounded(sum(e.weight * e.share for e in self.exercises))

    @property
    def max_score(self) -> float:
        return rounded(self.assignment.total_weight)

    @property
    def complete(self) -> bool:
        """Full marks on every exercise, as the schedule counts them (late policy applied)."""
        return all(e.complete for e in self.exercises)

    @property
    def completed_at(self) -> datetime | None:
        """When the learner first had full marks on every exercise as the schedule counts
        them (None: not yet; set exactly when ``complete``)."""
        moments = [e.completed_at for e in self.exercises]
        if not moments or any(m is None for m in moments):
            return None
        return max(m for m in moments if m is not None)

    @property
    def regrading(self) -> tuple[ExerciseStanding, ...]:
        return tuple(e for e in self.exercises if e.regrade is not None)

    @property
    def changed(self) -> tuple[ExerciseStanding, ...]:
        return tuple(e for e in self.exercises if e.change is not None)


def assignment_standing(
    assignment: Assignment,
    due: datetime,
    extended: bool,
    attempts: Iterable[GradedAttempt],
    titles: Mapping[str, str],
    now: datetime,
    current: Mapping[str, CurrentVersion] | None = None,
    budget: int | None = None,
) -> AssignmentStanding:
    """One learner's standing in one assignment from their graded attempts (pure)."""
    by_exercise: dict[str, list[GradedAttempt]] = defaultdict(list)
    for attempt in attempts:
        by_exercise[attempt.exercise_id].append(attempt)
    deadline = Deadline(due, assignment.late)
    return AssignmentStanding(
        assignment,
        due,
        extended,
        state_at(assignment, due, now),
        tuple(
            exercise_standing(
                item.id,
                titles.get(item.id, item.id),
                by_exercise[item.id],
                deadline,
                (current or {}).get(item.id),
                item.weight,
            )
            for item in assignment.exercises
        ),
        budget,
    )
