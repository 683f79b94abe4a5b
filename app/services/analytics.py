"""The class view: what a whole class gets right and wrong, per exercise and per assignment.

Every figure is computed from the learners' graded submissions (instructors' own are left
out). The functions here are pure over those rows, so the numbers are tested with fixed data;
``app/services/charts.py`` draws them and the pages show the same numbers as tables.
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta

from sqlalchemy.orm import Session

from app.models import Role
from app.schemas import (
    AssignmentAnalyticsOut,
    CountOut,
    DayCountOut,
    ExerciseAnalyticsOut,
    MistakeCountOut,
    TestPassRateOut,
)
from app.services import charts
from app.services.standings.load import assignment_gradebook
from app.store import accounts as account_store
from app.store import submissions as submission_store
from graders.api import Assignment, ExerciseCatalog, ExerciseWords

SCORE_BANDS = ("0–19 %", "20–39 %", "40–59 %", "60–79 %", "80–99 %", "100 %")


@dataclass(frozen=True)
class TestPassRate:
    name: str
    visibility: str
    passed: int
    graded: int

    @property
    def rate(self) -> float:
        return self.passed / self.graded if self.graded else 0.0


@dataclass(frozen=True)
class MistakeCount:
    hint: str
    submissions: int
    learners: int
    by_day: tuple[tuple[date, int], ...]


@dataclass(frozen=True)
class ExerciseAnalytics:
    exercise_id: str
    title: str
    learners: int  # learners with at least one graded submission
    submissions: int
    score_bands: tuple[tuple[str, int], ...]  # learners by their best share of the points
    tests: tuple[TestPassRate, ...]
    mistakes: tuple[MistakeCount, ...]  # most frequent first
    full_score_learners: int
    median_attempts_to_full: float | None  # submissions up to the first full score
    median_hours_to_full: float | None  # from the first submission to the first full


def in_words(view: ExerciseAnalytics, words: ExerciseWords) -> ExerciseAnalytics:
    """The view with the exercise's title, test names and hints in one reader's language
    (``words``), for its page and charts; the CSV keeps the names the reports carry."""
    return replace(
        view,
        title=words.title,
        tests=tuple(replace(t, name=words.case(t.name)) for t in view.tests),
        mistakes=tuple(replace(m, hint=words.hint(m.hint)) for m in view.mistakes),
    )


def score_band(share: float) -> str:
    return SCORE_BANDS[-1] if share >= 1.0 else SCORE_BANDS[min(int(share * 5), 4)]


def exercise_analytics(
    exercise_id: str, title: str, reports: Sequence[submission_store.GradedReport]
) -> ExerciseAnalytics:
    """The class view of one exercise from its graded submissions, oldest first."""
    by_user: dict[int, list[submission_store.GradedReport]] = defaultdict(list)
    for report in reports:
        by_user[report.user_id].append(report)
    bands = Counter(
        score_band(max(r.score / r.max_score for r in mine)) for mine in by_user.values()
    )
    attempts, hours = [], []
    for mine in by_user.values():
        first_full = next((i for i, r in enumerate(mine) if r.score >= r.max_score), None)
        if first_full is not None:
            attempts.append(first_full + 1)
            hours.append((mine[first_full].created_at - mine[0].created_at) / timedelta(hours=1))
    return ExerciseAnalytics(
        exercise_id=exercise_id,
        title=title,
        learners=len(by_user),
        submissions=len(reports),
        score_bands=tuple((band, bands[band]) for band in SCORE_BANDS),
        tests=_pass_rates(reports),
        mistakes=_mistakes(reports),
        full_score_learners=len(attempts),
        median_attempts_to_full=statistics.median(attempts) if attempts else None,
        median_hours_to_full=statistics.median(hours) if hours else None,
    )


def _pass_rates(reports: Iterable[submission_store.GradedReport]) -> tuple[TestPassRate, ...]:
    passed: Counter[str] = Counter()
    graded: Counter[str] = Counter()
    visibility: dict[str, str] = {}
    for report in reports:
        for test in report.tests:
            name = str(test.get("name", ""))
            visibility.setdefault(name, str(test.get("visibility", "")))
            graded[name] += 1
            passed[name] += test.get("status") == "passed"
    return tuple(
        TestPassRate(name, visibility[name], passed[name], graded[name]) for name in visibility
    )


def _mistakes(reports: Iterable[submission_store.GradedReport]) -> tuple[MistakeCount, ...]:
    submissions: Counter[str] = Counter()
    learners: dict[str, set[int]] = defaultdict(set)
    days: dict[str, Counter[date]] = defaultdict(Counter)
    for report in reports:
        if report.diagnosis_hint:
            submissions[report.diagnosis_hint] += 1
            learners[report.diagnosis_hint].add(report.user_id)
            days[report.diagnosis_hint][report.created_at.date()] += 1
    return tuple(
        MistakeCount(hint, count, len(learners[hint]), tuple(sorted(days[hint].items())))
        for hint, count in submissions.most_common()
    )


@dataclass(frozen=True)
class AssignmentAnalytics:
    assignment_id: str
    title: str
    learners: int  # every learner on the roster
    complete: int  # full marks on every exercise
    completion_by_day: tuple[tuple[date, int], ...]  # learners complete by the end of the day
    submissions: int
    late_submissions: int

    @property
    def late_share(self) -> float:
        return self.late_submissions / self.submissions if self.submissions else 0.0


def completion_by_day(
    first_complete: Iterable[datetime | None], start: date, end: date
) -> tuple[tuple[date, int], ...]:
    """How many learners had completed by the end of each day from ``start`` to ``end``."""
    done = sorted(moment.date() for moment in first_complete if moment is not None)
    days, total, index = [], 0, 0
    day = start
    while day <= end:
        while index < len(done) and done[index] <= day:
            total, index = total + 1, index + 1
        days.append((day, total))
        day += timedelta(days=1)
    return tuple(days)


def load_exercise_analytics(
    *, session: Session, catalog: ExerciseCatalog, exercise_id: str
) -> ExerciseAnalytics:
    exercise = catalog.load(exercise_id)  # ExerciseNotFound -> 404
    outside = account_store.outside_gradebooks(session=session)
    reports = [
        r
        for r in submission_store.graded_reports(
            session=session, exercise_ids=[exercise.id], role=Role.LEARNER
        )
        if r.user_id not in outside
    ]
    return exercise_analytics(exercise.id, exercise.title, reports)


def load_assignment_analytics(
    *, session: Session, catalog: ExerciseCatalog, assignment: Assignment, now: datetime
) -> AssignmentAnalytics:
    """The whole class's completion and lateness, from the standings: a learner is complete
    when the schedule counts full marks on every exercise (late policy applied), from the
    moment it first did. The chart's days run from the assignment's opening to its due time
    or the last completion, whichever is later (never past ``now``): no learner's extension
    moves them."""
    rows = assignment_gradebook(session=session, catalog=catalog, assignment=assignment, now=now)
    reports = submission_store.graded_reports(
        session=session, exercise_ids=assignment.exercise_ids, role=Role.LEARNER
    )
    dues = {row.user_id: row.standing.due for row in rows}
    late = sum(1 for r in reports if r.user_id in dues and r.created_at > dues[r.user_id])
    completed = [row.standing.completed_at for row in rows]
    last = max([assignment.due, *(m for m in completed if m is not None)])
    start = assignment.opens.date()
    return AssignmentAnalytics(
        assignment_id=assignment.id,
        title=assignment.title,
        learners=len(rows),
        complete=sum(row.standing.complete for row in rows),
        completion_by_day=completion_by_day(completed, start, max(min(now, last).date(), start)),
        submissions=len(reports),
        late_submissions=late,
    )


Table = list[tuple[str | float | int | None, ...]]


def exercise_tables(view: ExerciseAnalytics) -> dict[str, Table]:
    """The numbers behind each chart, as the page's tables and the CSV files show them."""
    return {
        "scores": [("best score", "learners"), *view.score_bands],
        "tests": [
            ("test", "visibility", "passed", "graded", "pass rate"),
            *((t.name, t.visibility, t.passed, t.graded, round(t.rate, 4)) for t in view.tests),
        ],
        "mistakes": [
            ("hint", "submissions", "learners"),
            *((m.hint, m.submissions, m.learners) for m in view.mistakes),
        ],
        "mistakes-by-day": [
            ("day", "hint", "submissions"),
            *((day.isoformat(), m.hint, count) for m in view.mistakes for day, count in m.by_day),
        ],
    }


def exercise_charts(view: ExerciseAnalytics) -> dict[str, str]:
    """The class view's charts as SVG (titles are on the page, in its language). Nothing while
    no learner has a graded submission, no mistakes chart while none was diagnosed: charts
    at zero say nothing, the page says it in words."""
    if not view.learners:
        return {}
    drawn = {
        "scores": charts.bar_chart(
            "Learners by their best share of the points",
            [band for band, _ in view.score_bands],
            [n for _, n in view.score_bands],
        ),
        "tests": charts.share_chart(
            "Share of submissions passing each test",
            [t.name for t in view.tests],
            [t.rate for t in view.tests],
        ),
    }
    if view.mistakes:
        days = sorted({day for m in view.mistakes for day, _ in m.by_day})
        drawn["mistakes"] = charts.daily_stacked_bars(
            "Submissions diagnosed with each mistake, by day",
            days,
            [(m.hint, [dict(m.by_day).get(day, 0) for day in days]) for m in view.mistakes],
        )
    return drawn


def completion_chart(view: AssignmentAnalytics) -> str | None:
    """Learners complete by day as SVG; None while nobody is, which a flat line at zero
    would not say (the page says it in words)."""
    if not any(count for _, count in view.completion_by_day):
        return None
    return charts.daily_line(
        "Learners with full marks on every exercise, by day",
        [day for day, _ in view.completion_by_day],
        [count for _, count in view.completion_by_day],
    )


def exercise_out(view: ExerciseAnalytics) -> ExerciseAnalyticsOut:
    return ExerciseAnalyticsOut(
        exercise=view.exercise_id,
        title=view.title,
        learners=view.learners,
        submissions=view.submissions,
        best_scores=[CountOut(label=band, count=n) for band, n in view.score_bands],
        tests=[
            TestPassRateOut(
                name=t.name,
                visibility=t.visibility,  # type: ignore[arg-type]
                passed=t.passed,
                graded=t.graded,
                rate=t.rate,
            )
            for t in view.tests
        ],
        mistakes=[
            MistakeCountOut(
                hint=m.hint,
                submissions=m.submissions,
                learners=m.learners,
                by_day=[DayCountOut(day=d, count=n) for d, n in m.by_day],
            )
            for m in view.mistakes
        ],
        full_score_learners=view.full_score_learners,
        median_attempts_to_full=view.median_attempts_to_full,
        median_hours_to_full=view.median_hours_to_full,
    )


def assignment_out(view: AssignmentAnalytics) -> AssignmentAnalyticsOut:
    return AssignmentAnalyticsOut(
        assignment=view.assignment_id,
        title=view.title,
        learners=view.learners,
        complete=view.complete,
        completion_by_day=[DayCountOut(day=d, count=n) for d, n in view.completion_by_day],
        submissions=view.submissions,
        late_submissions=view.late_submissions,
        late_share=view.late_share,
    )
