"""course.toml: loading, the errors that name what is wrong, and the late policy's arithmetic."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from graders.assignments import Assignment, LatePolicy, LatePolicyKind, Pace, load_schedule
from graders.authoring.validation import validate_course
from graders.errors import ScheduleError
from graders.exercises import ExerciseCatalog

REPO = Path(__file__).resolve().parents[2]
DUE = datetime(2026, 12, 8, 22, 59, tzinfo=UTC)
IDS = ("gru-update-gate", "gru-reset-gate")


def write(root: Path, text: str) -> Path:
    (root / "course.toml").write_text(text, encoding="utf-8")
    return root


ONE = """
timezone = "Europe/Berlin"
[[assignment]]
id = "gates"
title = "Gates"
opens = 2026-12-01T09:00:00
due = 2026-12-08T23:59:00
late = {late}
exercises = ["gru-update-gate", {{ id = "gru-reset-gate", weight = 2 }}]
"""


def test_on_time_keeps_the_whole_score() -> None:
    policy = LatePolicy(LatePolicyKind.PENALTY, per_day=0.1, floor=0.5)
    assert policy.factor(DUE, DUE) == 1.0
    assert policy.factor(DUE - timedelta(days=3), DUE) == 1.0


def test_penalty_counts_each_started_day_down_to_the_floor() -> None:
    policy = LatePolicy(LatePolicyKind.PENALTY, per_day=0.1, floor=0.5)
    assert policy.factor(DUE + timedelta(seconds=1), DUE) == pytest.approx(0.9)
    assert policy.factor(DUE + timedelta(days=1), DUE) == pytest.approx(0.9)
    assert policy.factor(DUE + timedelta(days=1, seconds=1), DUE) == pytest.approx(0.8)
    assert policy.factor(DUE + timedelta(days=30), DUE) == pytest.approx(0.5)


def test_cutoff_scores_nothing_after_the_due_time() -> None:
    policy = LatePolicy()
    assert policy.kind is LatePolicyKind.CUTOFF
    assert policy.factor(DUE, DUE) == 1.0
    assert policy.factor(DUE + timedelta(seconds=1), DUE) == 0.0


def test_an_extension_moves_the_due_time_the_policy_counts_from() -> None:
    policy = LatePolicy(LatePolicyKind.PENALTY, per_day=0.25, floor=0.0)
    extended = DUE + timedelta(days=2)
    submitted = DUE + timedelta(days=2, hours=1)
    assert policy.factor(submitted, DUE) == pytest.approx(0.25)
    assert policy.factor(submitted, extended) == pytest.approx(0.75)


def test_loads_times_in_the_schedule_zone_and_weights(tmp_path: Path) -> None:
    schedule = load_schedule(
        write(tmp_path, ONE.format(late='{ policy = "penalty", per_day = 0.1, floor = 0.5 }')), IDS
    )
    (gates,) = schedule.assignments
    assert gates.due == DUE  # 23:59 in Berlin in December is 22:59 UTC
    assert schedule.timezone == "Europe/Berlin"
    assert gates.due.astimezone(schedule.zone).hour == 23
    assert gates.opens == datetime(2026, 12, 1, 8, 0, tzinfo=UTC)
    assert gates.exercise_ids == IDS
    assert gates.total_weight == 3.0
    assert gates.late == LatePolicy(LatePolicyKind.PENALTY, 0.1, 0.5)
    assert schedule.assignment_of("gru-reset-gate") == gates
    assert schedule.assignment_of("lstm-step") is None
    assert not gates.is_open(gates.opens - timedelta(seconds=1))
    assert gates.is_open(gates.opens)


def test_an_explicit_offset_wins_over_the_schedule_zone(tmp_path: Path) -> None:
    text = ONE.format(late='{ policy = "cutoff" }').replace(
        "due = 2026-12-08T23:59:00", "due = 2026-12-08T23:59:00+09:00"
    )
    (gates,) = load_schedule(write(tmp_path, text), IDS).assignments
    assert gates.due == datetime(2026, 12, 8, 14, 59, tzinfo=UTC)


def test_no_course_file_means_no_assignments(tmp_path: Path) -> None:
    schedule = load_schedule(tmp_path, IDS)
    assert schedule.assignments == () and schedule.timezone == "UTC"


CUTOFF = 'late = { policy = "cutoff" }'


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ((CUTOFF, 'late = { policy = "forgive" }'), "'late.policy' must be one of"),
        (
            (CUTOFF, 'late = { policy = "penalty", per_day = 2 }'),
            "'late.per_day' must be a number from 0 to 1",
        ),
        ((CUTOFF, 'late = { policy = "cutoff", floor = 0.5 }'), "a cut-off takes no"),
        (('"gru-update-gate",', '"no-such-exercise",'), "'no-such-exercise' is not in the"),
        (("weight = 2", "weight = -1"), "must be a positive number"),
        (("due = 2026-12-08T23:59:00", "due = 2026-11-08T23:59:00"), "'due' must come after"),
        (("due = 2026-12-08T23:59:00", "due = 2026-12-08"), "'due' needs a time of day"),
        (('timezone = "Europe/Berlin"', 'timezone = "Mars/Olympus"'), "not a known time zone"),
        (('timezone = "Europe/Berlin"', ""), "'opens' has no time zone"),
        (('id = "gates"', 'id = "Gates!"'), "'id' must be lower-case"),
        (('title = "Gates"', "deadline = 1"), "unknown field(s) deadline"),
        (('title = "Gates"', 'title = "G"\nsubmissions = 0'), "'submissions' must be a whole"),
        (('title = "Gates"', 'title = "G"\nsubmissions = 2.5'), "'submissions' must be a whole"),
        (
            ('timezone = "Europe/Berlin"', 'timezone = "Europe/Berlin"\nsubmissions = true'),
            "course.toml: 'submissions' must be a whole number from 1 to 10000",
        ),
    ],
)
def test_a_broken_file_names_the_assignment_and_field(
    tmp_path: Path, change: tuple[str, str], message: str
) -> None:
    text = ONE.format(late='{ policy = "cutoff" }').replace(*change)
    with pytest.raises(ScheduleError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_schedule(write(tmp_path, text), IDS)


def test_an_assignments_budget_wins_over_the_courses(tmp_path: Path) -> None:
    text = "submissions = 40\n" + ONE.format(late=CUTOFF.split(" = ", 1)[1]).replace(
        'title = "Gates"', 'title = "Gates"\nsubmissions = 3'
    )
    schedule = load_schedule(write(tmp_path, text), (*IDS, "leaky-integrator"))
    assert schedule.submission_budget("gru-reset-gate") == 3
    assert schedule.submission_budget("leaky-integrator") == 40  # practice: the schedule's
    without = load_schedule(write(tmp_path, ONE.format(late=CUTOFF.split(" = ", 1)[1])), IDS)
    assert without.submission_budget("gru-reset-gate") is None


def test_an_assignments_pace_wins_bound_by_bound_over_the_courses(tmp_path: Path) -> None:
    text = "submissions_per_day = 4\ncooldown_minutes = 5\n" + ONE.format(
        late=CUTOFF.split(" = ", 1)[1]
    ).replace('title = "Gates"', 'title = "Gates"\ncooldown_minutes = 30')
    schedule = load_schedule(write(tmp_path, text), (*IDS, "leaky-integrator"))
    assert schedule.pace_of("gru-reset-gate") == Pace(4, timedelta(minutes=30))
    assert schedule.pace_of("leaky-integrator") == Pace(4, timedelta(minutes=5))  # practice
    plain = load_schedule(write(tmp_path, ONE.format(late=CUTOFF.split(" = ", 1)[1])), IDS)
    assert not plain.pace_of("gru-reset-gate")
    assert plain.assignments[0].reveal_hidden_after_close is False  # off by default


@pytest.mark.parametrize(
    ("field", "message"),
    [
        ("submissions_per_day = 0", "'submissions_per_day' must be a whole number from 1"),
        ("submissions_per_day = 1.5", "'submissions_per_day' must be a whole number from 1"),
        ("cooldown_minutes = 0", "'cooldown_minutes' must be a number of minutes above 0"),
        (
            "cooldown_minutes = 20000",
            "'cooldown_minutes' must be a number of minutes above 0 and at most 10080",
        ),
        ("cooldown_minutes = true", "'cooldown_minutes' must be a number"),
        ('reveal_hidden_after_close = "yes"', "'reveal_hidden_after_close' must be true or"),
    ],
)
def test_a_broken_pace_or_reveal_names_the_field(tmp_path: Path, field: str, message: str) -> None:
    text = ONE.format(late=CUTOFF.split(" = ", 1)[1]).replace(
        'title = "Gates"', f'title = "Gates"\n{field}'
    )
    with pytest.raises(ScheduleError, match=f"assignment 'gates': {message}"):
        load_schedule(write(tmp_path, text), IDS)


def test_an_assignment_may_reveal_its_hidden_tests_once_closed(tmp_path: Path) -> None:
    text = ONE.format(late=CUTOFF.split(" = ", 1)[1]).replace(
        'title = "Gates"', 'title = "Gates"\nreveal_hidden_after_close = true'
    )
    assert load_schedule(write(tmp_path, text), IDS).assignments[0].reveal_hidden_after_close


def test_an_assignment_id_used_twice_is_refused(tmp_path: Path) -> None:
    text = ONE.format(late='{ policy = "cutoff" }')
    with pytest.raises(ScheduleError, match="used twice: gates"):
        load_schedule(write(tmp_path, text + text.split("\n", 2)[2]), IDS)


def test_an_exercise_in_two_assignments_is_refused(tmp_path: Path) -> None:
    text = ONE.format(late='{ policy = "cutoff" }')
    second = text.split("\n", 2)[2].replace('id = "gates"', 'id = "again"')
    with pytest.raises(ScheduleError, match="gru-reset-gate, gru-update-gate in more than one"):
        load_schedule(write(tmp_path, text + second), IDS)


def test_the_bundled_course_assigns_every_exercise_once() -> None:
    catalog = ExerciseCatalog(REPO / "exercises")
    schedule = catalog.schedule()
    assert len(schedule.assignments) == 3
    assigned = [i for a in schedule.assignments for i in a.exercise_ids]
    assert sorted(assigned) == catalog.ids()
    assert all(isinstance(a, Assignment) and a.opens < a.due for a in schedule.assignments)
    result = validate_course(REPO / "exercises")
    assert result is not None and result.ok, result and result.problems


def test_the_catalog_rereads_an_edited_course_file(tmp_path: Path) -> None:
    for exercise_id in IDS:
        (tmp_path / exercise_id).mkdir()
        (tmp_path / exercise_id / "exercise.toml").write_text("", encoding="utf-8")
    catalog = ExerciseCatalog(tmp_path)
    assert catalog.schedule().assignments == ()
    write(tmp_path, ONE.format(late='{ policy = "cutoff" }'))
    assert [a.id for a in catalog.schedule().assignments] == ["gates"]
    write(tmp_path, "[[assignment]]\nid = 3\n")
    with pytest.raises(ScheduleError, match="assignment 1: 'id'"):
        catalog.schedule()


def test_an_assignment_has_a_title_per_language(tmp_path: Path) -> None:
    text = ONE.format(late='{ policy = "cutoff" }').replace(
        'title = "Gates"', 'title = { en = "Gates", ja = "ゲート" }'
    )
    (gates,) = load_schedule(write(tmp_path, text), IDS).assignments
    assert (gates.title, gates.title_in("ja"), gates.title_in("fr")) == ("Gates", "ゲート", "Gates")


def test_a_title_table_without_english_is_refused(tmp_path: Path) -> None:
    text = ONE.format(late='{ policy = "cutoff" }').replace(
        'title = "Gates"', 'title = { ja = "ゲート" }'
    )
    with pytest.raises(ScheduleError, match="assignment 'gates': 'title' must be a string or a"):
        load_schedule(write(tmp_path, text), IDS)


def test_every_bundled_assignment_has_a_japanese_title() -> None:
    catalog = ExerciseCatalog(REPO / "exercises")
    for assignment in catalog.schedule().assignments:
        assert assignment.title_in("ja") != assignment.title, assignment.id
