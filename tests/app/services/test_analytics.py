"""The class view's numbers from fixed submissions (no database, no clock)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from app.services.analytics import (
    SCORE_BANDS,
    completion_by_day,
    exercise_analytics,
    score_band,
)
from app.store.submissions import GradedReport

T0 = datetime(2026, 12, 1, 9, tzinfo=UTC)
SWAP = "Which of z and 1 - z multiplies h_prev?"
BIAS = "Where does the bias go?"


def report(
    user: int,
    score: float,
    hours: float,
    passed: tuple[bool, bool],
    hint: str | None = None,
    exercise: str = "gate",
) -> GradedReport:
    tests = [
        {"name": "example", "visibility": "public", "status": "passed" if passed[0] else "failed"},
        {"name": "batched", "visibility": "hidden", "status": "passed" if passed[1] else "failed"},
    ]
    return GradedReport(user, exercise, score, 10.0, T0 + timedelta(hours=hours), tests, hint)


REPORTS = [
    report(1, 2, 0, (False, False), SWAP),
    report(2, 10, 1, (True, True)),
    report(1, 5, 2, (True, False), BIAS),
    report(3, 0, 3, (False, False), SWAP),
    report(1, 10, 26, (True, True)),
    report(3, 3, 30, (False, False), SWAP),
]


def test_bands_cover_zero_to_full() -> None:
    assert [score_band(s) for s in (0.0, 0.19, 0.2, 0.59, 0.99, 1.0)] == [
        SCORE_BANDS[0],
        SCORE_BANDS[0],
        SCORE_BANDS[1],
        SCORE_BANDS[2],
        SCORE_BANDS[4],
        SCORE_BANDS[5],
    ]


def test_one_exercise_for_the_whole_class() -> None:
    view = exercise_analytics("gate", "Gate", REPORTS)
    assert (view.learners, view.submissions, view.full_score_learners) == (3, 6, 2)
    assert dict(view.score_bands) == {
        "0–19 %": 0,
        "20–39 %": 1,
        "40–59 %": 0,
        "60–79 %": 0,
        "80–99 %": 0,
        "100 %": 2,
    }
    assert [(t.name, t.visibility, t.passed, t.graded) for t in view.tests] == [
        ("example", "public", 3, 6),
        ("batched", "hidden", 2, 6),
    ]
    assert view.tests[0].rate == 0.5
    swap, bias = view.mistakes
    assert (swap.hint, swap.submissions, swap.learners) == (SWAP, 3, 2)
    assert swap.by_day == ((date(2026, 12, 1), 2), (date(2026, 12, 2), 1))
    assert (bias.hint, bias.submissions, bias.learners) == (BIAS, 1, 1)
    # learner 2: full at once (1 attempt, 0 h); learner 1: third attempt, 26 h after the first
    assert view.median_attempts_to_full == 2.0
    assert view.median_hours_to_full == 13.0


def test_nobody_submitted() -> None:
    view = exercise_analytics("gate", "Gate", [])
    assert (view.learners, view.tests, view.mistakes) == (0, (), ())
    assert view.median_attempts_to_full is None and view.median_hours_to_full is None


def test_completions_are_counted_by_the_end_of_each_day() -> None:
    days = completion_by_day(
        [T0 + timedelta(hours=50), None, T0], date(2026, 12, 1), date(2026, 12, 4)
    )
    assert days == (
        (date(2026, 12, 1), 1),
        (date(2026, 12, 2), 1),
        (date(2026, 12, 3), 2),
        (date(2026, 12, 4), 2),
    )
