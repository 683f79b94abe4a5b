"""app/services/standings/rules.py: one learner's standing in one assignment, with fixed clocks
(no database)."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from app.services.standings.rules import (
    AssignmentState,
    CurrentVersion,
    Regrade,
    RegradeState,
    ScoreChange,
    assignment_standing,
    format_points,
    state_at,
)
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
    result = assignment_standing(GATES, DUE, False, attempts, {"update": "Update gate"}, DUE)
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
    result = assignment_standing(GATES, DUE, True, attempts, {}, DUE)
    assert result.complete and result.score == result.max_score == 4.0 and result.extended


def test_work_after_a_cut_off_scores_nothing_and_is_marked_late() -> None:
    cutoff = Assignment("c", "C", OPENS, DUE, LatePolicy(), GATES.exercises)
    attempts = [attempt("update", 10, DUE + timedelta(hours=1)), attempt("reset", 0, DUE)]
    update, reset = assignment_standing(cutoff, DUE, False, attempts, {}, DUE).exercises
    assert (update.share, update.late, update.attempts) == (0.0, True, 1)
    assert (reset.share, reset.late, reset.attempts) == (0.0, False, 1)


def test_completion_is_the_first_moment_every_exercise_counts_in_full() -> None:
    attempts = [
        attempt("update", 10, OPENS),
        attempt("reset", 4, OPENS + timedelta(hours=5)),
        attempt("reset", 10, OPENS + timedelta(hours=50)),
    ]
    result = assignment_standing(GATES, DUE, False, attempts, {}, DUE)
    assert result.complete and result.completed_at == OPENS + timedelta(hours=50)
    partial = assignment_standing(GATES, DUE, False, attempts[:2], {}, DUE)
    assert not partial.complete and partial.completed_at is None


def test_late_work_scoring_nothing_under_a_cut_off_is_not_full_marks() -> None:
    """Issue 39: under a cut-off, late work with every point counted as complete."""
    cutoff = Assignment("c", "C", OPENS, DUE, LatePolicy(), GATES.exercises)
    attempts = [attempt("update", 10, OPENS), attempt("reset", 10, DUE + timedelta(hours=1))]
    result = assignment_standing(cutoff, DUE, False, attempts, {}, DUE + timedelta(days=1))
    assert not result.complete and result.completed_at is None
    assert result.score == 1.0 and result.exercises[1].late
    # The same work with an extension past it counts in full.
    extended = assignment_standing(
        cutoff, DUE + timedelta(days=1), True, attempts, {}, DUE + timedelta(days=1)
    )
    assert extended.complete and extended.score == 4.0


def test_points_are_rounded_once_to_two_decimals() -> None:
    thirds = Assignment(
        "t",
        "T",
        OPENS,
        DUE,
        PENALTY,
        tuple(AssignedExercise(e, 1.0) for e in "abc"),
    )
    attempts = [GradedAttempt(1, "ada", e, 1.0, 3.0, OPENS) for e in "abc"]
    result = assignment_standing(thirds, DUE, False, attempts, {}, DUE)
    assert [e.points for e in result.exercises] == [0.33, 0.33, 0.33]
    assert result.score == 1.0  # summed before rounding, as every surface sums it
    assert [format_points(v) for v in (27.0, 2.5, 0.999, 0.005, 1234567.0, -0.001)] == [
        "27",
        "2.5",
        "1",
        "0.01",
        "1234567",
        "0",
    ]


def test_a_regrade_in_progress_names_both_maxima() -> None:
    """Issue 39: mid-regrade the page said 26/26 and the CSV 29; now both are named."""
    old = GradedAttempt(1, "ada", "update", 26.0, 26.0, OPENS, "s1", "v1", regrading=True)
    new = GradedAttempt(1, "ada", "update", 20.0, 29.0, OPENS, "s2", "v2", earlier=(20.0, 26.0))
    current = {"update": CurrentVersion("v2", 29.0)}
    result = assignment_standing(GATES, DUE, False, [old, new], {}, DUE, current)
    update = result.exercises[0]
    assert update.regrade == Regrade(RegradeState.QUEUED, 26.0, 29.0)
    assert (update.score, update.max_score, update.points) == (26.0, 26.0, 1.0)
    assert update.change is None  # told once the regrade is over
    stale = replace(old, regrading=False)
    waiting = assignment_standing(GATES, DUE, False, [stale], {}, DUE, current).exercises[0]
    assert waiting.regrade == Regrade(RegradeState.NOT_QUEUED, 26.0, 29.0)


def test_a_finished_regrade_that_changed_the_points_is_told() -> None:
    regraded = GradedAttempt(
        1, "ada", "update", 20.0, 29.0, OPENS, "s1", "v2", earlier=(26.0, 26.0)
    )
    current = {"update": CurrentVersion("v2")}
    update = assignment_standing(GATES, DUE, False, [regraded], {}, DUE, current).exercises[0]
    assert update.regrade is None
    assert update.change == ScoreChange(before=1.0, after=0.69)
    same = replace(regraded, score=29.0, earlier=(26.0, 26.0))
    unchanged = assignment_standing(GATES, DUE, False, [same], {}, DUE, current).exercises[0]
    assert unchanged.change is None  # full marks before and after: nothing to tell
