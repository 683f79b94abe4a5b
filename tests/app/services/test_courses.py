"""The standing of one learner in one assignment, with fixed clocks (no database)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy.orm import Session

from app.models import Submission, SubmissionKind
from app.services.courses import (
    AssignmentState,
    CourseMark,
    course_mark,
    late_submissions,
    standing,
    state_at,
)
from app.store import accounts as account_store
from app.store import courses as course_store
from app.store.submissions import GradedAttempt
from graders import Assignment, Course, LatePolicy, LatePolicyKind
from graders.course import AssignedExercise

OPENS = datetime(2026, 12, 1, 8, tzinfo=UTC)
DUE = datetime(2026, 12, 8, 23, tzinfo=UTC)
PENALTY = LatePolicy(LatePolicyKind.PENALTY, per_day=0.2, floor=0.3)
GATES = Assignment(
    "gates",
    "Gates",
    OPENS,
    DUE,
    PENALTY,
    (AssignedExercise("update", 1.0), AssignedExercise("reset", 3.0)),
)


def attempt(exercise: str, score: float, at: datetime) -> GradedAttempt:
    return GradedAttempt(1, "ada", exercise, score, 10.0, at)


def test_the_best_share_after_the_policy_counts() -> None:
    attempts = [
        attempt("update", 6, DUE - timedelta(days=1)),  # 0.6 on time
        attempt("update", 10, DUE + timedelta(hours=30)),  # 1.0 × 0.6 late: a tie
        attempt("reset", 10, DUE + timedelta(days=9)),  # 1.0 × floor 0.3
        attempt("reset", 2, DUE),
    ]  # 0.2 on time, exactly
    result = standing(GATES, DUE, False, attempts, {"update": "Update gate"}, DUE)
    update, reset = result.exercises
    assert (update.title, update.share, update.late, update.attempts) == (
        "Update gate",
        0.6,
        False,
        2,
    )
    assert (reset.title, reset.share, reset.late) == ("reset", 0.3, True)
    assert result.score == 0.6 * 1 + 0.3 * 3
    assert result.max_score == 4.0 and not result.complete


def test_states_follow_the_clock_and_the_policy() -> None:
    assert state_at(GATES, DUE, OPENS - timedelta(seconds=1)) is AssignmentState.UPCOMING
    assert state_at(GATES, DUE, OPENS) is AssignmentState.OPEN
    assert state_at(GATES, DUE, DUE) is AssignmentState.OPEN
    assert state_at(GATES, DUE, DUE + timedelta(days=40)) is AssignmentState.LATE
    cutoff = Assignment("c", "C", OPENS, DUE, LatePolicy(), GATES.exercises)
    assert state_at(cutoff, DUE, DUE + timedelta(seconds=1)) is AssignmentState.CLOSED
    assert (
        state_at(cutoff, DUE + timedelta(days=2), DUE + timedelta(days=1)) is AssignmentState.OPEN
    )


def test_full_marks_on_time_complete_the_assignment() -> None:
    attempts = [attempt("update", 10, DUE), attempt("reset", 10, OPENS)]
    result = standing(GATES, DUE, True, attempts, {}, DUE)
    assert result.complete and result.score == result.max_score == 4.0 and result.extended


def test_work_after_a_cut_off_scores_nothing_and_is_marked_late() -> None:
    cutoff = Assignment("c", "C", OPENS, DUE, LatePolicy(), GATES.exercises)
    attempts = [attempt("update", 10, DUE + timedelta(hours=1)), attempt("reset", 0, DUE)]
    update, reset = standing(cutoff, DUE, False, attempts, {}, DUE).exercises
    assert (update.share, update.late, update.attempts) == (0.0, True, 1)
    assert (reset.share, reset.late, reset.attempts) == (0.0, False, 1)


def test_a_submissions_mark_follows_the_learners_own_due_time(db: Session) -> None:
    course = Course((GATES,))
    ada = account_store.create_user(session=db, name="ada")
    on_time = course_mark(
        session=db, course=course, user_id=ada.id, exercise_id="reset", submitted_at=DUE
    )
    assert on_time == CourseMark("gates", DUE, 3.0, False, 1.0)
    two_days = DUE + timedelta(days=1, hours=1)
    late = course_mark(
        session=db, course=course, user_id=ada.id, exercise_id="reset", submitted_at=two_days
    )
    assert late is not None and late.late and late.factor == 0.6  # two started days late
    assert (
        course_mark(
            session=db, course=course, user_id=ada.id, exercise_id="other", submitted_at=DUE
        )
        is None
    )
    rows = [
        Submission(
            id="a",
            user_id=ada.id,
            exercise_id="reset",
            created_at=two_days,
            kind=SubmissionKind.SUBMIT,
        ),
        Submission(
            id="b",
            user_id=ada.id,
            exercise_id="other",
            created_at=two_days,
            kind=SubmissionKind.SUBMIT,
        ),
        Submission(
            id="c",
            user_id=ada.id,
            exercise_id="reset",
            created_at=two_days,
            kind=SubmissionKind.RUN,
        ),
    ]
    assert late_submissions(session=db, course=course, user=ada, submissions=rows) == {"a"}
    course_store.set_extension(
        session=db, user=ada, assignment_id="gates", due=two_days, granted_by="prof"
    )
    extended = course_mark(
        session=db, course=course, user_id=ada.id, exercise_id="reset", submitted_at=two_days
    )
    assert extended == CourseMark("gates", two_days, 3.0, False, 1.0)
    assert late_submissions(session=db, course=course, user=ada, submissions=rows) == set()
