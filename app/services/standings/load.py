"""The standings read from the database and the catalog: one learner's (their pages, the API,
the LMS passback), an assignment's and the whole schedule's (the gradebooks, their CSVs, the
archive, the class view), and which submissions were late (histories)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from app.models import Role, Submission, SubmissionKind, User
from app.services.standings.rules import (
    AssignmentStanding,
    CurrentVersion,
    Deadline,
    ExerciseStanding,
    assignment_standing,
    exercise_standing,
    rounded,
)
from app.store import accounts as account_store
from app.store import extensions as extension_store
from app.store import submissions as submission_store
from graders.api import (
    Assignment,
    AssignmentSchedule,
    Exercise,
    ExerciseCatalog,
    ExerciseError,
    ExerciseNotFound,
)


@dataclass(frozen=True)
class Learner:
    """Who a standing is about, as every gradebook and its CSV name them."""

    name: str
    display_name: str | None = None
    section: str | None = None
    email: str | None = None

    @classmethod
    def of(cls, user: User) -> Learner:
        return cls(user.name, user.display_name, user.section, user.email)


def max_points(catalog: ExerciseCatalog, exercise: Exercise) -> float | None:
    """The points of the exercise's current version (its cases' sum), whether or not anyone
    submitted; None for a folder that does not prepare."""
    try:
        prepared = catalog.prepare(exercise)
    except ExerciseError:
        return None
    return rounded(sum(case.spec.points for case in prepared.cases))


def current_versions(
    catalog: ExerciseCatalog, attempts: Iterable[submission_store.GradedAttempt]
) -> dict[str, CurrentVersion]:
    """Each attempted exercise's current version; its points only where some work was graded
    by another version (preparing an exercise runs its reference: done only when needed)."""
    by_exercise: dict[str, list[submission_store.GradedAttempt]] = defaultdict(list)
    for attempt in attempts:
        by_exercise[attempt.exercise_id].append(attempt)
    found = {}
    for exercise_id, tried in by_exercise.items():
        try:
            exercise = catalog.load(exercise_id)
        except (ExerciseNotFound, ExerciseError):
            continue  # gone from the catalog: its work stands as graded
        stale = any(a.regrading or a.exercise_version != exercise.version for a in tried)
        found[exercise_id] = CurrentVersion(
            exercise.version, max_points(catalog, exercise) if stale else None
        )
    return found


def _titles(catalog: ExerciseCatalog, exercise_ids: Iterable[str]) -> dict[str, str]:
    """The titles of those exercises (only those: surveying the whole catalog reads every
    folder); an exercise gone from the catalog keeps its id."""
    titles = {}
    for exercise_id in exercise_ids:
        try:
            titles[exercise_id] = catalog.load(exercise_id).title
        except (ExerciseNotFound, ExerciseError):
            titles[exercise_id] = exercise_id
    return titles


def learner_standings(
    *, session: Session, catalog: ExerciseCatalog, user: User, now: datetime
) -> list[AssignmentStanding]:
    """Every assignment of the schedule with ``user``'s standing, in the file's order."""
    schedule = catalog.schedule()
    exercise_ids = [i for a in schedule.assignments for i in a.exercise_ids]
    attempts = submission_store.graded_attempts(
        session=session, exercise_ids=exercise_ids, user_id=user.id
    )
    extensions = {
        e.assignment_id: e.due
        for e in extension_store.list_extensions(session=session, user_id=user.id)
    }
    titles = _titles(catalog, exercise_ids)
    current = current_versions(catalog, attempts)
    return [
        assignment_standing(
            a,
            extensions.get(a.id, a.due),
            a.id in extensions,
            (t for t in attempts if t.exercise_id in a.exercise_ids),
            titles,
            now,
            current,
            schedule.budget_of(a),
        )
        for a in schedule.assignments
    ]


def learner_standing(
    *, session: Session, catalog: ExerciseCatalog, user: User, assignment: Assignment, now: datetime
) -> AssignmentStanding:
    return next(
        s
        for s in learner_standings(session=session, catalog=catalog, user=user, now=now)
        if s.assignment.id == assignment.id
    )


def assigned_exercise_standing(
    *, session: Session, catalog: ExerciseCatalog, user: User, exercise_id: str, now: datetime
) -> tuple[AssignmentStanding, ExerciseStanding] | None:
    """The learner's standing in the assignment holding the exercise (an exercise is in one
    assignment at most), and in the exercise; None for an exercise kept for practice."""
    for standing in learner_standings(session=session, catalog=catalog, user=user, now=now):
        for exercise in standing.exercises:
            if exercise.exercise_id == exercise_id:
                return standing, exercise
    return None


@dataclass(frozen=True)
class LearnerDue:
    learner: User
    due: datetime  # the learner's own: the assignment's, or their extension
    extended: bool


def learner_dues(
    *, session: Session, assignment: Assignment, section: str | None = None
) -> list[LearnerDue]:
    """Every learner the gradebooks list (of ``section`` if given), by name, with their due
    time for the assignment."""
    extensions = {
        e.user_id: e.due
        for e in extension_store.list_extensions(session=session, assignment_id=assignment.id)
    }
    outside = account_store.outside_gradebooks(session=session)
    return [
        LearnerDue(u, extensions.get(u.id, assignment.due), u.id in extensions)
        for u in account_store.list_users(session=session, role=Role.LEARNER, section=section)
        if u.id not in outside
    ]


@dataclass(frozen=True)
class AssignmentRow:
    """One learner's standing in one assignment, as the assignment's gradebook lists it."""

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
    assignment: Assignment,
    now: datetime,
    section: str | None = None,
) -> list[AssignmentRow]:
    """Every learner's standing in one assignment, by name (learners without work too);
    ``section``: only that roster section's learners."""
    attempts = submission_store.graded_attempts(
        session=session, exercise_ids=assignment.exercise_ids, role=Role.LEARNER
    )
    by_user: dict[int, list[submission_store.GradedAttempt]] = defaultdict(list)
    for attempt in attempts:
        by_user[attempt.user_id].append(attempt)
    titles = _titles(catalog, assignment.exercise_ids)
    current = current_versions(catalog, attempts)
    budget = catalog.schedule().budget_of(assignment)
    return [
        AssignmentRow(
            d.learner.id,
            Learner.of(d.learner),
            assignment_standing(
                assignment,
                d.due,
                d.extended,
                by_user[d.learner.id],
                titles,
                now,
                current,
                budget,
            ),
        )
        for d in learner_dues(session=session, assignment=assignment, section=section)
    ]


@dataclass(frozen=True)
class OverallRow:
    learner: Learner
    standings: tuple[AssignmentStanding, ...]

    @property
    def user_name(self) -> str:
        return self.learner.name

    @property
    def score(self) -> float:
        return rounded(sum(e.weight * e.share for s in self.standings for e in s.exercises))


@dataclass(frozen=True)
class OverallGradebook:
    assignments: tuple[Assignment, ...]
    rows: tuple[OverallRow, ...]

    @property
    def max_score(self) -> float:
        return rounded(sum(a.total_weight for a in self.assignments))


def overall_gradebook(
    *, session: Session, catalog: ExerciseCatalog, now: datetime, section: str | None = None
) -> OverallGradebook:
    """Every learner's standing in every assignment; ``section``: only that roster section's
    learners."""
    schedule = catalog.schedule()
    per_assignment = [
        assignment_gradebook(
            session=session, catalog=catalog, assignment=a, now=now, section=section
        )
        for a in schedule.assignments
    ]
    learners = [row.learner for row in per_assignment[0]] if per_assignment else []
    rows = tuple(
        OverallRow(learner, tuple(table[i].standing for table in per_assignment))
        for i, learner in enumerate(learners)
    )
    return OverallGradebook(schedule.assignments, rows)


@dataclass(frozen=True)
class ExerciseRow:
    """One learner's standing in every exercise they attempted, as the exercise gradebook
    lists it: in each exercise's own points, the schedule's rules applied (an assignment's
    exercise under its late policy and the learner's due time, practice at its best)."""

    learner: Learner
    exercises: dict[str, ExerciseStanding]

    @property
    def name(self) -> str:
        return self.learner.name

    @property
    def total(self) -> float:
        return rounded(
            sum(e.share * e.counted.max_score for e in self.exercises.values() if e.counted)
        )


def _deadlines(
    schedule: AssignmentSchedule,
    dues: dict[tuple[int, str], datetime],
    user_id: int,
    exercise_id: str,
) -> Deadline:
    assignment = schedule.assignment_of(exercise_id)
    if assignment is None:
        return Deadline()
    return Deadline(dues.get((user_id, assignment.id), assignment.due), assignment.late)


def exercise_gradebook(
    *,
    session: Session,
    catalog: ExerciseCatalog,
    exercise_ids: Sequence[str],
    section: str | None = None,
    user: User | None = None,
    learners_only: bool = False,
) -> list[ExerciseRow]:
    """One row per learner the gradebooks list (and per anyone else who submitted), by name,
    with their standing in each of ``exercise_ids`` they attempted; ``section``: only that
    roster section's learners; ``user``: only theirs (the catalog's "your best");
    ``learners_only``: nobody else."""
    schedule = catalog.schedule()
    if user is not None:
        users: Sequence[User] = [user]
    else:
        outside = account_store.outside_gradebooks(session=session)
        users = [
            u
            for u in account_store.list_users(session=session, section=section)
            if u.id not in outside
        ]
    by_id = {u.id: u for u in users if u.role is Role.LEARNER or not learners_only}
    attempts = [
        a
        for a in submission_store.graded_attempts(
            session=session,
            exercise_ids=exercise_ids,
            user_id=None if user is None else user.id,
        )
        if a.user_id in by_id
    ]
    dues = {
        (e.user_id, e.assignment_id): e.due
        for e in extension_store.list_extensions(session=session)
    }
    grouped: dict[tuple[int, str], list[submission_store.GradedAttempt]] = defaultdict(list)
    for attempt in attempts:
        grouped[attempt.user_id, attempt.exercise_id].append(attempt)
    titles = _titles(catalog, {exercise_id for _, exercise_id in grouped})
    current = current_versions(catalog, attempts)
    rows = {u.id: ExerciseRow(Learner.of(u), {}) for u in users if u.role is Role.LEARNER}
    for (user_id, exercise_id), tried in grouped.items():
        if user_id not in rows:
            rows[user_id] = ExerciseRow(Learner.of(by_id[user_id]), {})
        assignment = schedule.assignment_of(exercise_id)
        weight = None
        if assignment is not None:
            weight = next(i.weight for i in assignment.exercises if i.id == exercise_id)
        rows[user_id].exercises[exercise_id] = exercise_standing(
            exercise_id,
            titles.get(exercise_id, exercise_id),
            tried,
            _deadlines(schedule, dues, user_id, exercise_id),
            current.get(exercise_id),
            weight,
        )
    return sorted(rows.values(), key=lambda r: r.name.lower())


def late_submissions(
    *, session: Session, schedule: AssignmentSchedule, submissions: Iterable[Submission]
) -> frozenset[str]:
    """The ids of those graded submissions that came after their learner's due time (an
    extension counts) for the assignment holding their exercise; practice work is never
    late."""
    chosen = [
        s
        for s in submissions
        if s.kind is SubmissionKind.SUBMIT and schedule.assignment_of(s.exercise_id) is not None
    ]
    dues = {
        (e.user_id, e.assignment_id): e.due
        for e in extension_store.list_extensions(session=session)
    }
    return frozenset(
        s.id
        for s in chosen
        if _deadlines(schedule, dues, s.user_id, s.exercise_id).is_late(s.created_at)
    )


def own_standings(
    *, session: Session, catalog: ExerciseCatalog, user: User, exercise_ids: Sequence[str]
) -> dict[str, ExerciseStanding]:
    """``user``'s standing in each of ``exercise_ids`` they attempted (their "best" on the
    catalog and the exercise page), as the exercise gradebook shows it."""
    rows = exercise_gradebook(
        session=session, catalog=catalog, exercise_ids=exercise_ids, user=user
    )
    return rows[0].exercises if rows else {}
