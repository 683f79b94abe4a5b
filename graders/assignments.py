"""The assignment schedule: ``course.toml`` at the root of an exercises folder lists the
assignments, their dates and the submission budgets.

"Course" alone means a course of exercises (graders/exercises/courses.py, ``about.toml``), and an
LMS's course is an LMS context; the class ``AssignmentSchedule`` holds the file's schedule.

    timezone = "Europe/Berlin"          # for times written without an offset
    submissions = 60                    # graded submissions per learner and exercise (optional)

    [[assignment]]
    id = "gates"
    title = { en = "Gates of a GRU", ja = "GRU のゲート" }   # or one string: English only
    opens = 2026-12-01T09:00:00
    due = 2026-12-08T23:59:00+01:00     # an explicit offset wins over ``timezone``
    late = { policy = "penalty", per_day = 0.1, floor = 0.5 }   # or { policy = "cutoff" }
    exercises = [
      { id = "gru-update-gate", weight = 1 },
      { id = "gru-reset-gate", weight = 2 },
    ]
    submissions = 30                    # this assignment's own budget per exercise (optional)
    submissions_per_day = 5             # graded submissions per exercise and day (optional)
    cooldown_minutes = 10               # between two graded submissions to one exercise (opt.)
    reveal_hidden_after_close = true    # hidden tests shown once it closes (default false)

The file is versioned with the exercises it names. ``load_schedule`` checks it and says which
line of which assignment is wrong; ``LatePolicy.factor`` is the policy's arithmetic, pure so
that it can be tested with fixed clocks. A submission budget bounds what a learner can learn of
an exercise's hidden cases over the schedule (docs/security.md): each graded submission tells
at most a few bits, so the budget times those bits is all a learner can ever take out. The
pace (``submissions_per_day``, ``cooldown_minutes``; the schedule's, or an assignment's own)
spreads those submissions out. A folder without ``course.toml`` has an empty schedule: every
exercise is open for practice.
"""

from __future__ import annotations

import enum
import math
import re
import tomllib
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta, tzinfo
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from graders.errors import ScheduleError
from graders.titles import title_in, titles_by_language

COURSE_FILE = "course.toml"
ASSIGNMENT_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,62}")
MAX_BUDGET = 10_000
"""The largest submission budget the schedule may set: more is no budget at all."""
BUDGET_FIELDS = ("submissions", "submissions_per_day", "cooldown_minutes")
"""The fields that bound a learner's graded submissions, at the top and in an assignment."""
MAX_COOLDOWN_MINUTES = 7 * 24 * 60
"""A week: a longer cooldown is a closed exercise, which ``due`` says better."""


@dataclass(frozen=True)
class Pace:
    """How fast a learner may send graded submissions to one exercise (None: no bound)."""

    per_day: int | None = None
    """Graded submissions per calendar day of the schedule's time zone."""
    cooldown: timedelta | None = None
    """The least time between two graded submissions."""

    def __bool__(self) -> bool:
        return self.per_day is not None or self.cooldown is not None

    def over(self, other: Pace) -> Pace:
        """This pace, each bound it leaves unset taken from ``other``."""
        return Pace(
            self.per_day if self.per_day is not None else other.per_day,
            self.cooldown if self.cooldown is not None else other.cooldown,
        )


class LatePolicyKind(enum.Enum):
    CUTOFF = "cutoff"  # late work is graded and marked late, and scores nothing
    PENALTY = "penalty"  # each started day late takes ``per_day`` off, down to ``floor``


@dataclass(frozen=True)
class LatePolicy:
    kind: LatePolicyKind = LatePolicyKind.CUTOFF
    per_day: float = 0.0
    floor: float = 0.0

    def factor(self, submitted: datetime, due: datetime) -> float:
        """The share of its score a submission keeps when made at ``submitted``."""
        late_by = submitted - due
        if late_by <= timedelta(0):
            return 1.0
        if self.kind is LatePolicyKind.CUTOFF:
            return 0.0
        days = math.ceil(late_by / timedelta(days=1))
        return max(self.floor, 1.0 - self.per_day * days)


@dataclass(frozen=True)
class AssignedExercise:
    id: str
    weight: float = 1.0


@dataclass(frozen=True)
class Assignment:
    id: str
    title: str
    """The English title (instructors' pages, CSVs, the archive)."""
    opens: datetime
    due: datetime
    late: LatePolicy
    exercises: tuple[AssignedExercise, ...]
    submissions: int | None = None
    """Graded submissions a learner may make to each of its exercises (None: the schedule's)."""
    pace: Pace = Pace()
    """Its own pace; a bound it leaves unset is the schedule's."""
    reveal_hidden_after_close: bool = False
    """Once it closed for a learner, show them the hidden tests of their own submissions."""
    titles: Mapping[str, str] = field(default_factory=dict)
    """The title by language as ``course.toml`` gives it (``en`` is ``title``)."""

    def title_in(self, lang: str) -> str:
        """The title in ``lang``, else the English one."""
        return title_in({"en": self.title, **self.titles}, lang)

    @property
    def exercise_ids(self) -> tuple[str, ...]:
        return tuple(item.id for item in self.exercises)

    @property
    def total_weight(self) -> float:
        return sum(item.weight for item in self.exercises)

    def is_open(self, now: datetime) -> bool:
        return now >= self.opens


@dataclass(frozen=True)
class AssignmentSchedule:
    """The assignment schedule of ``course.toml``: its assignments, time zone and budgets."""

    assignments: tuple[Assignment, ...] = ()
    timezone: str = "UTC"  # where the schedule's times are shown (and read, without an offset)
    submissions: int | None = None
    """Graded submissions a learner may make to each exercise (None: as many as they like)."""
    pace: Pace = Pace()

    @property
    def zone(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)

    def assignment(self, assignment_id: str) -> Assignment | None:
        return next((a for a in self.assignments if a.id == assignment_id), None)

    def assignment_of(self, exercise_id: str) -> Assignment | None:
        """The one assignment an exercise is part of (None: open for practice)."""
        return next((a for a in self.assignments if exercise_id in a.exercise_ids), None)

    def budget_of(self, assignment: Assignment) -> int | None:
        """Graded submissions a learner may make to each exercise of the assignment: its own
        budget, else the schedule's (None: no limit)."""
        return assignment.submissions if assignment.submissions is not None else self.submissions

    def submission_budget(self, exercise_id: str) -> int | None:
        """Graded submissions a learner may make to the exercise (None: no limit)."""
        assignment = self.assignment_of(exercise_id)
        return self.budget_of(assignment) if assignment is not None else self.submissions

    def pace_of(self, exercise_id: str) -> Pace:
        """How fast a learner may send graded submissions to the exercise."""
        assignment = self.assignment_of(exercise_id)
        return assignment.pace.over(self.pace) if assignment is not None else self.pace


def load_schedule(root: Path, exercise_ids: Collection[str]) -> AssignmentSchedule:
    """The assignment schedule in ``root/course.toml``, checked against the exercises that
    exist (an empty one without the file)."""
    file = root / COURSE_FILE
    if not file.is_file():
        return AssignmentSchedule()
    try:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ScheduleError(f"{COURSE_FILE}: not valid TOML: {exc}") from None
    unknown = set(data) - {"timezone", "assignment", *BUDGET_FIELDS}
    if unknown:
        raise ScheduleError(f"{COURSE_FILE}: unknown field(s) {', '.join(sorted(unknown))}")
    zone = _zone(data.get("timezone"))
    tables = data.get("assignment", [])
    if not isinstance(tables, list):
        raise ScheduleError(
            f"{COURSE_FILE}: 'assignment' must be an array of tables ([[assignment]])"
        )
    assignments = tuple(
        _assignment(table, index, zone, exercise_ids) for index, table in enumerate(tables, start=1)
    )
    ids = [a.id for a in assignments]
    repeated = sorted({i for i in ids if ids.count(i) > 1})
    if repeated:
        raise ScheduleError(f"{COURSE_FILE}: assignment id(s) used twice: {', '.join(repeated)}")
    # One deadline per submission: an exercise may belong to one assignment only.
    assigned = [i for a in assignments for i in a.exercise_ids]
    shared = sorted({i for i in assigned if assigned.count(i) > 1})
    if shared:
        raise ScheduleError(
            f"{COURSE_FILE}: exercise(s) {', '.join(shared)} in more than one "
            "assignment; an exercise belongs to one assignment at most"
        )
    return AssignmentSchedule(
        assignments,
        data.get("timezone", "UTC"),
        _budget(data.get("submissions"), COURSE_FILE),
        _pace(data, COURSE_FILE),
    )


def _pace(table: Mapping[str, Any], where: str) -> Pace:
    per_day, cooldown = table.get("submissions_per_day"), table.get("cooldown_minutes")
    if per_day is not None and (
        isinstance(per_day, bool) or not isinstance(per_day, int) or not 1 <= per_day <= MAX_BUDGET
    ):
        raise ScheduleError(
            f"{where}: 'submissions_per_day' must be a whole number from 1 to {MAX_BUDGET} "
            "(graded submissions per learner, exercise and day)"
        )
    if cooldown is not None and (
        isinstance(cooldown, bool)
        or not isinstance(cooldown, int | float)
        or not 0 < cooldown <= MAX_COOLDOWN_MINUTES
    ):
        raise ScheduleError(
            f"{where}: 'cooldown_minutes' must be a number of minutes above 0 and at most "
            f"{MAX_COOLDOWN_MINUTES} (between two graded submissions to one exercise)"
        )
    return Pace(per_day, timedelta(minutes=cooldown) if cooldown is not None else None)


def _budget(value: Any, where: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_BUDGET:
        raise ScheduleError(
            f"{where}: 'submissions' must be a whole number from 1 to {MAX_BUDGET} "
            "(graded submissions per learner and exercise)"
        )
    return value


def _zone(name: Any) -> tzinfo | None:
    if name is None:
        return None
    if not isinstance(name, str):
        raise ScheduleError(f"{COURSE_FILE}: 'timezone' must be a name such as 'Europe/Berlin'")
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ScheduleError(
            f"{COURSE_FILE}: 'timezone' {name!r} is not a known time zone"
        ) from None


def _assignment(
    table: Any, index: int, zone: tzinfo | None, exercise_ids: Collection[str]
) -> Assignment:
    where = f"{COURSE_FILE}: assignment {index}"
    if not isinstance(table, dict):
        raise ScheduleError(f"{where}: must be a table")
    assignment_id = table.get("id")
    if not isinstance(assignment_id, str) or not ASSIGNMENT_ID.fullmatch(assignment_id):
        raise ScheduleError(f"{where}: 'id' must be lower-case letters, digits and dashes")
    where = f"{COURSE_FILE}: assignment {assignment_id!r}"
    unknown = set(table) - {
        "id",
        "title",
        "opens",
        "due",
        "late",
        "exercises",
        "reveal_hidden_after_close",
        *BUDGET_FIELDS,
    }
    if unknown:
        raise ScheduleError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    if "title" not in table:
        raise ScheduleError(f"{where}: 'title' is missing or empty")
    titles = titles_by_language(table["title"], where, ScheduleError)
    opens = _moment(table.get("opens"), "opens", where, zone)
    due = _moment(table.get("due"), "due", where, zone)
    if due <= opens:
        raise ScheduleError(f"{where}: 'due' must come after 'opens'")
    reveal = table.get("reveal_hidden_after_close", False)
    if not isinstance(reveal, bool):
        raise ScheduleError(f"{where}: 'reveal_hidden_after_close' must be true or false")
    return Assignment(
        assignment_id,
        titles["en"],
        opens,
        due,
        _late_policy(table.get("late", {}), where),
        _exercises(table.get("exercises"), where, exercise_ids),
        _budget(table.get("submissions"), where),
        _pace(table, where),
        reveal,
        titles,
    )


def _moment(value: Any, key: str, where: str, zone: tzinfo | None) -> datetime:
    if isinstance(value, date) and not isinstance(value, datetime):
        raise ScheduleError(f"{where}: '{key}' needs a time of day as well as a date")
    if not isinstance(value, datetime):
        raise ScheduleError(
            f"{where}: '{key}' must be a date and time, such as 2026-12-08T23:59:00+01:00"
        )
    if value.tzinfo is None:
        if zone is None:
            raise ScheduleError(
                f"{where}: '{key}' has no time zone; write an offset "
                "(…T23:59:00+01:00) or set 'timezone' at the top of the file"
            )
        value = value.replace(tzinfo=zone)
    moment: datetime = value.astimezone(UTC)
    return moment


def _late_policy(table: Any, where: str) -> LatePolicy:
    if not isinstance(table, dict):
        raise ScheduleError(f"{where}: 'late' must be a table such as {{ policy = \"cutoff\" }}")
    unknown = set(table) - {"policy", "per_day", "floor"}
    if unknown:
        raise ScheduleError(f"{where}: 'late' has unknown field(s) {', '.join(sorted(unknown))}")
    try:
        kind = LatePolicyKind(table.get("policy", LatePolicyKind.CUTOFF.value))
    except ValueError:
        choices = ", ".join(k.value for k in LatePolicyKind)
        raise ScheduleError(f"{where}: 'late.policy' must be one of {choices}") from None
    if kind is LatePolicyKind.CUTOFF:
        if set(table) - {"policy"}:
            raise ScheduleError(f"{where}: a cut-off takes no 'per_day' or 'floor'")
        return LatePolicy()
    per_day = _share(table.get("per_day"), "late.per_day", where)
    floor = _share(table.get("floor", 0.0), "late.floor", where)
    if per_day == 0:
        raise ScheduleError(f"{where}: 'late.per_day' must be above 0 (use a cut-off for none)")
    return LatePolicy(kind, per_day, floor)


def _share(value: Any, key: str, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise ScheduleError(f"{where}: '{key}' must be a number from 0 to 1")
    return float(value)


def _exercises(
    items: Any, where: str, exercise_ids: Collection[str]
) -> tuple[AssignedExercise, ...]:
    if not isinstance(items, list) or not items:
        raise ScheduleError(f"{where}: 'exercises' must list at least one exercise")
    assigned = []
    for item in items:
        entry: Mapping[str, Any] = {"id": item} if isinstance(item, str) else item
        if not isinstance(entry, Mapping) or set(entry) - {"id", "weight"}:
            raise ScheduleError(f"{where}: each exercise is an id or {{ id = …, weight = … }}")
        exercise_id, weight = entry.get("id"), entry.get("weight", 1)
        if exercise_id not in exercise_ids:
            raise ScheduleError(f"{where}: exercise {exercise_id!r} is not in the exercises folder")
        if isinstance(weight, bool) or not isinstance(weight, int | float) or weight <= 0:
            raise ScheduleError(f"{where}: the weight of {exercise_id!r} must be a positive number")
        assigned.append(AssignedExercise(str(exercise_id), float(weight)))
    ids = [a.id for a in assigned]
    if len(set(ids)) != len(ids):
        raise ScheduleError(f"{where}: an exercise is listed twice")
    return tuple(assigned)
