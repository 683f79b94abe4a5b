"""One learner's record, as their instructors read it: every exercise of the course with what
the schedule counts, and every graded submission with its code and whole result.

The whole result is the stored row: a hidden test's name, points, failure category and
message included, and its full message (what it would have said as a public test,
``submissions.hidden_messages``). The learner's own pages never show this view.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from app.models import Submission, SubmissionKind, User
from app.services.assignments import find_user
from app.services.standings.load import learner_standings, own_standings
from app.services.standings.rules import AssignmentStanding, ExerciseStanding
from app.store import submissions as submission_store
from graders.api import ExerciseCatalog, words_in

# More graded submissions than a learner makes in a course; the page says when it cut.
RECORD_LIMIT = 2000


@dataclass(frozen=True)
class RecordedSubmission:
    submission: Submission
    late: bool  # after the learner's own due time for the exercise's assignment


@dataclass(frozen=True)
class ExerciseRecord:
    exercise_id: str
    title: str
    submissions: tuple[RecordedSubmission, ...]  # newest first
    standing: ExerciseStanding | None = None  # None: nothing graded (practice) yet


@dataclass(frozen=True)
class AssignmentRecord:
    standing: AssignmentStanding
    exercises: tuple[ExerciseRecord, ...]


@dataclass(frozen=True)
class LearnerRecord:
    learner: User
    assignments: tuple[AssignmentRecord, ...]
    practice: tuple[ExerciseRecord, ...]  # the catalog's exercises in no assignment
    truncated: bool  # more than RECORD_LIMIT graded submissions: the oldest are left out

    @property
    def exercises(self) -> tuple[ExerciseRecord, ...]:
        """The assignments' exercises, then the practice ones."""
        return (*(e for a in self.assignments for e in a.exercises), *self.practice)

    @property
    def submissions(self) -> int:
        return sum(len(e.submissions) for e in self.exercises)


def learner_record(
    *, session: Session, catalog: ExerciseCatalog, name: str, now: datetime, lang: str = "en"
) -> LearnerRecord:
    """``name``'s record (raises ``LearnerNotFound``): the schedule's assignments in the file's
    order, then the practice exercises in the catalog's; titles in ``lang``."""
    learner = find_user(session=session, name=name)
    rows = submission_store.list_submissions(
        session=session, user_id=learner.id, kind=SubmissionKind.SUBMIT, limit=RECORD_LIMIT + 1
    )
    by_exercise: dict[str, list[Submission]] = defaultdict(list)
    for row in rows[:RECORD_LIMIT]:
        by_exercise[row.exercise_id].append(row)
    titles = {exercise.id: words_in(exercise, lang).title for exercise in catalog.all()}

    def record(
        exercise_id: str, due: datetime | None, standing: ExerciseStanding | None = None
    ) -> ExerciseRecord:
        return ExerciseRecord(
            exercise_id,
            titles.get(exercise_id, exercise_id),
            tuple(
                RecordedSubmission(s, due is not None and s.created_at > due)
                for s in by_exercise[exercise_id]
            ),
            standing,
        )

    standings = learner_standings(session=session, catalog=catalog, user=learner, now=now)
    assigned = {e.exercise_id for s in standings for e in s.exercises}
    # The catalog's order, then exercises gone from the catalog that still hold work.
    practice = dict.fromkeys(i for i in (*titles, *by_exercise) if i not in assigned)
    best = own_standings(session=session, catalog=catalog, user=learner, exercise_ids=[*practice])
    return LearnerRecord(
        learner,
        tuple(
            AssignmentRecord(s, tuple(record(e.exercise_id, s.due, e) for e in s.exercises))
            for s in standings
        ),
        tuple(record(exercise_id, None, best.get(exercise_id)) for exercise_id in practice),
        len(rows) > RECORD_LIMIT,
    )
