"""The score a grade link's learner has in the link's target as the schedule counts it, and how
far along the work is: what grade passback (passback.py) posts as an AGS Score's
``scoreGiven``, ``scoreMaximum``, ``activityProgress`` and ``gradingProgress``."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy.orm import Session

from app.models import LtiGradeLink, WorkScope, utcnow
from app.services.assignments import get_assignment
from app.services.standings import load as standings
from app.services.standings.rules import rounded
from app.store import submissions as submission_store
from graders.api import ExerciseCatalog


class ActivityProgress(enum.Enum):
    """The AGS Score's ``activityProgress`` numjudge sends: ``Completed`` ("the user has
    completed the activity") once the learner has every point of the link's work as the schedule
    counts it, else ``InProgress`` ("in the process of completing"): an assignment at 2 of 18
    is not done, even past its due time."""

    IN_PROGRESS = "InProgress"
    COMPLETED = "Completed"


GRADING_PROGRESS = "FullyGraded"
"""The AGS Score's ``gradingProgress``: "the grading process is completed; the score value
represents the current Final Grade". Every submission the score counts was graded by the
machine and released before the score is sent, with no manual step and nothing pending; a later
submission sends a newer score. (``Pending`` would tell the LMS the value is partial, and an LMS
may keep such a score out of its gradebook.)"""


@dataclass(frozen=True)
class Score:
    given: float
    maximum: float
    complete: bool = False  # every point of the work, as the schedule counts it

    @property
    def progress(self) -> ActivityProgress:
        return ActivityProgress.COMPLETED if self.complete else ActivityProgress.IN_PROGRESS


def counted(*, session: Session, catalog: ExerciseCatalog, link: LtiGradeLink) -> Score | None:
    """The link's learner's score in its target as the standings count it now (late policy
    and extension applied, rounded as every surface rounds it); an exercise outside every
    assignment counts its best graded score (None before the first)."""
    now = utcnow()
    if link.scope is WorkScope.ASSIGNMENT:
        standing = standings.learner_standing(
            session=session,
            catalog=catalog,
            user=link.user,
            assignment=get_assignment(catalog.schedule(), link.target),
            now=now,
        )
        return Score(standing.score, standing.max_score, standing.complete)
    found = standings.assigned_exercise_standing(
        session=session, catalog=catalog, user=link.user, exercise_id=link.target, now=now
    )
    if found is not None:
        exercise = found[1]
        return Score(exercise.points, rounded(exercise.weight), exercise.complete)
    practice = standings.own_standings(
        session=session, catalog=catalog, user=link.user, exercise_ids=[link.target]
    ).get(link.target)
    if practice is None or practice.score is None or practice.max_score is None:
        return None
    return Score(practice.score, practice.max_score, practice.complete)


def has_graded_work(*, session: Session, catalog: ExerciseCatalog, link: LtiGradeLink) -> bool:
    """Whether the learner has a graded (and released) submission in the link's target."""
    if link.scope is WorkScope.EXERCISE:
        exercise_ids: Sequence[str] = [link.target]
    else:
        exercise_ids = get_assignment(catalog.schedule(), link.target).exercise_ids
    attempts = submission_store.graded_attempts(
        session=session, exercise_ids=exercise_ids, user_id=link.user_id
    )
    return bool(attempts)
