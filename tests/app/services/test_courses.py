"""The standing of one learner in one assignment, with fixed clocks (no database)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from app.services.courses import AssignmentState, standing, state_at
from app.store.submissions import GradedAttempt
from graders.api import Assignment, LatePolicy, LatePolicyKind
from graders.assignments import AssignedExercise

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
