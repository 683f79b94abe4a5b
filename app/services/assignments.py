"""An assignment and a learner looked up by name, and an assignment with a learner's standing as
the API returns it (``GET /assignments``)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from app.models import User
from app.schemas import (
    AssignmentExerciseOut,
    AssignmentOut,
    LatePolicyOut,
    RegradeStateOut,
    ScoreChangeOut,
)
from app.services.standings.rules import AssignmentStanding, ExerciseStanding
from app.store import accounts as account_store
from graders.api import Assignment, AssignmentSchedule


class AssignmentNotFound(LookupError):
    """No assignment with that id in ``course.toml``."""


class LearnerNotFound(LookupError):
    """No user with that name."""


def get_assignment(schedule: AssignmentSchedule, assignment_id: str) -> Assignment:
    assignment = schedule.assignment(assignment_id)
    if assignment is None:
        raise AssignmentNotFound(f"Assignment {assignment_id!r} not found")
    return assignment


def find_user(*, session: Session, name: str) -> User:
    user = account_store.get_user_by_name(session=session, name=name)
    if user is None:
        raise LearnerNotFound(f"user {name!r} not found")
    return user


def _exercise_out(e: ExerciseStanding) -> AssignmentExerciseOut:
    return AssignmentExerciseOut(
        id=e.exercise_id,
        title=e.title,
        url=f"/exercises/{e.exercise_id}",
        weight=e.weight,
        share=e.share,
        points=e.points,
        late=e.late,
        attempts=e.attempts,
        regrade=None
        if e.regrade is None
        else RegradeStateOut(
            state=e.regrade.state.value,
            graded_max=e.regrade.graded_max,
            current_max=e.regrade.current_max,
        ),
        score_change=None
        if e.change is None
        else ScoreChangeOut(before=e.change.before, after=e.change.after),
    )


def assignment_out(standing: AssignmentStanding, now: datetime, lang: str) -> AssignmentOut:
    """The standing as the API returns it, the assignment's title in ``lang``."""
    assignment, late = standing.assignment, standing.assignment.late
    return AssignmentOut(
        id=assignment.id,
        title=assignment.title_in(lang),
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
        exercises=[_exercise_out(e) for e in standing.exercises],
    )
