"""Assignments as a learner and an instructor see them: due times, late work, scores.

The course itself (``course.toml``) is read by the engine's catalog; this module joins it with
the database: a learner's graded submissions, their extension, and the clock. Lateness is
derived, never stored, so moving a due time in ``course.toml`` re-scores everyone at once.
"""

from __future__ import annotations

import enum
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo

from sqlalchemy.orm import Session

from app.models import Role, Submission, User
from app.schemas import AssignmentExerciseOut, AssignmentOut, LatePolicyOut
from app.services.gradebook import LEARNER_COLUMNS, Cell, Learner, Points
from app.store import accounts as account_store
from app.store import courses as course_store
from app.store import submissions as submission_store
from graders.api import Assignment, Course, ExerciseCatalog


class AssignmentNotFound(LookupError):
    """No assignment with that id in ``course.toml``."""


class ExtensionRefused(ValueError):
    """An extension that would end before the assignment's own due time."""


class LearnerNotFound(LookupError):
    """No user with that name."""


class AssignmentState(enum.Enum):
    UPCOMING = "upcoming"  # not open yet
    OPEN = "open"  # open, before the (learner's own) due time
    LATE = "late"  # past due; late work still scores something
    CLOSED = "closed"  # past due; late work is graded but scores nothing


@dataclass(frozen=True)
class ExerciseStanding:
    exercise_id: str
    title: str
    weight: float
    share: float  # the best share of the exercise's points, late policy applied (0 to 1)
    late: bool  # that best share came from a late submission
    attempts: int

    @property
    def points(self) -> float:
        return self.weight * self.share


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
        return sum(e.points for e in self.exercises)

    @property
    def max_score(self) -> float:
        return self.assignment.total_weight

    @property
    def complete(self) -> bool:
        return all(e.share >= 1.0 for e in self.exercises)


def get_assignment(course: Course, assignment_id: str) -> Assignment:
    assignment = course.assignment(assignment_id)
    if assignment is None:
        raise AssignmentNotFound(f"Assignment {assignment_id!r} not found")
    return assignment


def state_at(assignment: Assignment, due: datetime, now: datetime) -> AssignmentState:
    if now < assignment.opens:
        return AssignmentState.UPCOMING
    if now <= due:
        return AssignmentState.OPEN
    return AssignmentState.LATE if assignment.late.factor(now, due) > 0 else AssignmentState.CLOSED


def kept_share(
    assignment: Assignment, due: datetime, attempt: submission_store.GradedAttempt
) -> float:
    """The attempt's share of the exercise's points after the late policy (0 to 1)."""
    return attempt.score / attempt.max_score * assignment.late.factor(attempt.created_at, due)


def counted_attempt(
    assignment: Assignment, due: datetime, attempts: Iterable[submission_store.GradedAttempt]
) -> submission_store.GradedAttempt | None:
    """The attempt at one exercise that the course counts: the best share after the late
    policy; among equal shares an on-time attempt, then the earliest (None: no attempt)."""
    return max(
        attempts,
        key=lambda a: (
            kept_share(assignment, due, a),
            a.created_at <= due,
            -a.created_at.timestamp(),
        ),
        default=None,
    )


def standing(
    assignment: Assignment,
    due: datetime,
    extended: bool,
    attempts: Iterable[submission_store.GradedAttempt],
    titles: Mapping[str, str],
    now: datetime,
    budget: int | None = None,
) -> AssignmentStanding:
    """One learner's standing from their graded submissions (pure: no clock, no database)."""
    by_exercise: dict[str, list[submission_store.GradedAttempt]] = defaultdict(list)
    for attempt in attempts:
        by_exercise[attempt.exercise_id].append(attempt)

    exercises = []
    for item in assignment.exercises:
        # Work that scores nothing after a cut-off is still late work, and is marked as such.
        best = counted_attempt(assignment, due, by_exercise[item.id])
        share = 0.0 if best is None else kept_share(assignment, due, best)
        late = best is not None and best.created_at > due
        exercises.append(
            ExerciseStanding(
                item.id,
                titles.get(item.id, item.id),
                item.weight,
                share,
                late,
                len(by_exercise[item.id]),
            )
        )
    return AssignmentStanding(
        assignment, due, extended, state_at(assignment, due, now), tuple(exercises), budget
    )


def _titles(catalog: ExerciseCatalog) -> dict[str, str]:
    return {exercise.id: exercise.title for exercise in catalog.all()}


def learner_standings(
    *, session: Session, catalog: ExerciseCatalog, user: User, now: datetime
) -> list[AssignmentStanding]:
    """Every assignment of the course with ``user``'s progress, in the file's order."""
    course = catalog.course()
    exercise_ids = [i for a in course.assignments for i in a.exercise_ids]
    attempts = submission_store.graded_attempts(
        session=session, exercise_ids=exercise_ids, user_id=user.id
    )
    extensions = {
        e.assignment_id: e.due
        for e in course_store.list_extensions(session=session, user_id=user.id)
    }
    titles = _titles(catalog)
    return [
        standing(
            a,
            extensions.get(a.id, a.due),
            a.id in extensions,
            (t for t in attempts if t.exercise_id in a.exercise_ids),
            titles,
            now,
            course.budget_of(a),
        )
        for a in course.assignments
    ]


def learner_standing(
    *, session: Session, catalog: ExerciseCatalog, user: User, assignment_id: str, now: datetime
) -> AssignmentStanding:
    get_assignment(catalog.course(), assignment_id)
    return next(
        s
        for s in learner_standings(session=session, catalog=catalog, user=user, now=now)
        if s.assignment.id == assignment_id
    )


def exercise_standing(
    *, session: Session, catalog: ExerciseCatalog, user: User, exercise_id: str, now: datetime
) -> tuple[AssignmentStanding, ExerciseStanding] | None:
    """The learner's standing in the assignment holding the exercise (an exercise is in one
    assignment at most), and in the exercise; None for an exercise kept for practice."""
    for assignment_standing in learner_standings(
        session=session, catalog=catalog, user=user, now=now
    ):
        for exercise in assignment_standing.exercises:
            if exercise.exercise_id == exercise_id:
                return assignment_standing, exercise
    return None


@dataclass(frozen=True)
class GradebookRow:
    user_id: int
    learner: Learner
    standing: AssignmentStanding

    @property
    def user_name(self) -> str:
        return self.learner.name


def assignment_gradebook(
    *,
    session: Session,
    catalog: ExerciseCatalog,
    assignment_id: str,
    now: datetime,
    section: str | None = None,
) -> list[GradebookRow]:
    """Every learner's standing in one assignment, by name (learners without work too);
    ``section``: only that roster section's learners."""
    assignment = get_assignment(catalog.course(), assignment_id)
    attempts = submission_store.graded_attempts(
        session=session, exercise_ids=assignment.exercise_ids, role=Role.LEARNER
    )
    by_user: dict[int, list[submission_store.GradedAttempt]] = defaultdict(list)
    for attempt in attempts:
        by_user[attempt.user_id].append(attempt)
    titles = _titles(catalog)
    return [
        GradebookRow(
            d.learner.id,
            Learner.of(d.learner),
            standing(assignment, d.due, d.extended, by_user[d.learner.id], titles, now),
        )
        for d in learner_dues(session=session, assignment=assignment, section=section)
    ]


@dataclass(frozen=True)
class LearnerDue:
    learner: User
    due: datetime  # the learner's own: the assignment's, or their extension
    extended: bool


def learner_dues(
    *, session: Session, assignment: Assignment, section: str | None = None
) -> list[LearnerDue]:
    """Every learner (of ``section`` if given), by name, with their due time for the
    assignment."""
    extensions = {
        e.user_id: e.due
        for e in course_store.list_extensions(session=session, assignment_id=assignment.id)
    }
    return [
        LearnerDue(u, extensions.get(u.id, assignment.due), u.id in extensions)
        for u in account_store.list_users(session=session, role=Role.LEARNER, section=section)
    ]


def late_submissions(
    *, session: Session, course: Course, submissions: Iterable[Submission]
) -> frozenset[str]:
    """The ids of those submissions that came after their learner's due time (an extension
    counts) for the assignment holding their exercise; practice work is never late."""
    holding = {item.id: a for a in course.assignments for item in a.exercises}
    dues: dict[str, dict[int, datetime]] = {}
    late = set()
    for submission in submissions:
        assignment = holding.get(submission.exercise_id)
        if assignment is None:
            continue
        if assignment.id not in dues:
            dues[assignment.id] = {
                d.learner.id: d.due for d in learner_dues(session=session, assignment=assignment)
            }
        if submission.created_at > dues[assignment.id].get(submission.user_id, assignment.due):
            late.add(submission.id)
    return frozenset(late)


def assignment_out(standing: AssignmentStanding, now: datetime) -> AssignmentOut:
    assignment, late = standing.assignment, standing.assignment.late
    return AssignmentOut(
        id=assignment.id,
        title=assignment.title,
        url=f"/assignments/{assignment.id}",
        opens=assignment.opens,
        due=standing.due,
        extended=standing.extended,
        state=standing.state.value,
        seconds_left=(standing.due - now).total_seconds(),
        late_policy=LatePolicyOut(policy=late.kind.value, per_day=late.per_day, floor=late.floor),
        score=standing.score,
        max_score=standing.max_score,
        complete=standing.complete,
        submission_budget=standing.budget,
        exercises=[
            AssignmentExerciseOut(
                id=e.exercise_id,
                title=e.title,
                url=f"/exercises/{e.exercise_id}",
                weight=e.weight,
                share=e.share,
                points=e.points,
                late=e.late,
                attempts=e.attempts,
            )
            for e in standing.exercises
        ],
    )


def find_user(*, session: Session, name: str) -> User:
    user = account_store.get_user_by_name(session=session, name=name)
    if user is None:
        raise LearnerNotFound(f"user {name!r} not found")
    return user


def extend(
    *, session: Session, learner: User, assignment: Assignment, due: datetime, granted_by: str
) -> None:
    """Give ``learner`` their own, later due time. An earlier one is refused: an extension
    that shortens the time given to everyone is a mistake in the date, not a grace."""
    if due < assignment.due:
        zone = due.tzinfo or UTC
        raise ExtensionRefused(
            f"an extension ends after the assignment's own due time "
            f"({assignment.due.astimezone(zone):%Y-%m-%d %H:%M %Z}), not at "
            f"{due.astimezone(zone):%Y-%m-%d %H:%M %Z}"
        )
    course_store.set_extension(
        session=session, user=learner, assignment_id=assignment.id, due=due, granted_by=granted_by
    )


def remove_extension(*, session: Session, learner: User, assignment: Assignment) -> bool:
    """The assignment's own due time applies to ``learner`` again; False if it already did."""
    return course_store.delete_extension(
        session=session, user_id=learner.id, assignment_id=assignment.id
    )


@dataclass(frozen=True)
class OverallRow:
    learner: Learner
    standings: tuple[AssignmentStanding, ...]

    @property
    def user_name(self) -> str:
        return self.learner.name

    @property
    def score(self) -> float:
        return sum(s.score for s in self.standings)


@dataclass(frozen=True)
class OverallGradebook:
    assignments: tuple[Assignment, ...]
    rows: tuple[OverallRow, ...]

    @property
    def max_score(self) -> float:
        return sum(a.total_weight for a in self.assignments)


def overall_gradebook(
    *, session: Session, catalog: ExerciseCatalog, now: datetime, section: str | None = None
) -> OverallGradebook:
    """Every learner's score in every assignment, the late policy applied; ``section``: only
    that roster section's learners."""
    course = catalog.course()
    per_assignment = [
        assignment_gradebook(
            session=session, catalog=catalog, assignment_id=a.id, now=now, section=section
        )
        for a in course.assignments
    ]
    learners = [row.learner for row in per_assignment[0]] if per_assignment else []
    rows = tuple(
        OverallRow(learner, tuple(table[i].standing for table in per_assignment))
        for i, learner in enumerate(learners)
    )
    return OverallGradebook(course.assignments, rows)


def overall_csv_rows(table: OverallGradebook) -> list[tuple[Cell, ...]]:
    """``learner, name, section, email, <assignment id>…, total`` with a ``(max)`` row, as the
    page shows it: points rounded as the page rounds them, the total summed before rounding."""
    return [
        (*LEARNER_COLUMNS, *(a.id for a in table.assignments), "total"),
        (
            "(max)",
            *(None for _ in LEARNER_COLUMNS[1:]),
            *(Points(a.total_weight) for a in table.assignments),
            Points(table.max_score),
        ),
        *(
            (*row.learner.cells, *(Points(s.score) for s in row.standings), Points(row.score))
            for row in table.rows
        ),
    ]


def assignment_csv_rows(
    assignment: Assignment, rows: Sequence[GradebookRow], zone: tzinfo
) -> list[tuple[Cell, ...]]:
    """``learner, name, section, email, due, <exercise id>…, <exercise id>_late…, total`` with
    a ``(max)`` row: points after the policy, rounded as the page rounds them, the total summed
    before rounding; due times in the course's zone as the pages show them."""
    ids = assignment.exercise_ids
    return [
        (*LEARNER_COLUMNS, "due", *ids, *(f"{i}_late" for i in ids), "total"),
        (
            "(max)",
            *(None for _ in LEARNER_COLUMNS[1:]),
            assignment.due.astimezone(zone).isoformat(),
            *(Points(e.weight) for e in assignment.exercises),
            *(None for _ in ids),
            Points(assignment.total_weight),
        ),
        *(
            (
                *row.learner.cells,
                row.standing.due.astimezone(zone).isoformat(),
                *(Points(e.points) for e in row.standing.exercises),
                *("late" if e.late else None for e in row.standing.exercises),
                Points(row.standing.score),
            )
            for row in rows
        ),
    ]
