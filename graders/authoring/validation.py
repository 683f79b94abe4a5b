"""``numjudge validate``: prove that an exercise folder is complete and its cases are sound,
and that the assignment schedule is; each family of checks is a module of its own."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path

from graders.assignments import COURSE_FILE, AssignmentSchedule, load_schedule
from graders.authoring.costs import check_case_costs, check_case_time_limits, check_speed_rules
from graders.authoring.mistakes import check_mistakes, check_mutants
from graders.authoring.reference import (
    check_determinism,
    check_reference,
    check_rules,
    check_starter,
)
from graders.authoring.result import ValidationResult
from graders.authoring.sample_checks import check_samples
from graders.authoring.texts import (
    check_arguments,
    check_metadata,
    check_statement,
    check_translations,
    check_worked_examples,
)
from graders.errors import GraderError
from graders.exercises import (
    COURSE_DIR_PREFIX,
    Exercise,
    PreparedExercise,
    course_folders,
    course_of,
    load_exercise,
    prepare_exercise,
)
from graders.sandbox.runner import Sandbox


def validate_folder(path: Path, sandbox: Sandbox) -> ValidationResult:
    """Every check of one folder; problems say what to fix."""
    result = ValidationResult(path)
    try:
        exercise = load_exercise(path)
    except GraderError as exc:
        result.problems.append(str(exc))
        return result
    check_metadata(exercise, result)
    try:
        prepared = prepare_exercise(exercise)
    except GraderError as exc:
        result.problems.append(str(exc))
        return result
    checks: list[Callable[[PreparedExercise, Sandbox, ValidationResult], None]] = [
        check_arguments,
        check_statement,
        check_translations,
        check_worked_examples,
        check_rules,
        check_reference,
        check_case_costs,
        check_speed_rules,
        check_case_time_limits,
        check_starter,
        check_mistakes,
        check_mutants,
        check_determinism,
        check_samples,
    ]
    for check in checks:
        check(prepared, sandbox, result)
    return result


def validate_course(root: Path) -> ValidationResult | None:
    """Check ``root/course.toml`` and the course folders against the exercise folders beside
    them; None if there is neither."""
    has_file = (root / COURSE_FILE).is_file()
    if not has_file and not any(p.name.startswith(COURSE_DIR_PREFIX) for p in root.iterdir()):
        return None
    result = ValidationResult(root / COURSE_FILE if has_file else root)
    ids = sorted(p.name for p in root.iterdir() if (p / "exercise.toml").is_file())
    exercises = _loadable(root, ids)
    try:
        schedule = load_schedule(root, ids)
        courses = course_folders(root)
    except GraderError as exc:
        result.problems.append(str(exc))
        return result
    for exercise in exercises:
        if course_of(courses, exercise.course) is None:
            result.problems.append(
                f"{exercise.id}: course {exercise.course!r} has no folder "
                f"{COURSE_DIR_PREFIX}{exercise.course}/; add it or correct the name"
            )
    assigned = {i for a in schedule.assignments for i in a.exercise_ids}
    drafts = sorted(e.id for e in exercises if e.draft and e.id in assigned)
    if drafts:
        result.problems.append(
            f"assignments name draft exercise(s) {', '.join(drafts)}, "
            "which learners cannot see; publish them or take them out"
        )
    result.problems.extend(_revealed_cases_reused(root, schedule))
    if len(courses) > 1:
        result.notes.append(f"courses {', '.join(c.id for c in courses)}")
    result.notes.append(
        f"{len(schedule.assignments)} assignment(s), "
        f"{len(set(ids) - assigned)} exercise(s) for practice only"
    )
    return result


def _revealed_cases_reused(root: Path, schedule: AssignmentSchedule) -> list[str]:
    """An exercise of a later assignment whose ``cases.py`` is one a revealing assignment
    (``reveal_hidden_after_close``) shows once closed: its hidden inputs are public by then."""

    def cases(exercise_id: str) -> bytes | None:
        file = root / exercise_id / "cases.py"
        return file.read_bytes() if file.is_file() else None

    problems: list[str] = []
    for shown in (a for a in schedule.assignments if a.reveal_hidden_after_close):
        for exercise_id in shown.exercise_ids:
            revealed = cases(exercise_id)
            for later in (a for a in schedule.assignments if a.due > shown.due):
                problems.extend(
                    f"{other}: its cases.py is that of {exercise_id}, whose hidden tests "
                    f"assignment {shown.id!r} reveals once closed, before {later.id!r} is due; "
                    "give it new cases"
                    for other in later.exercise_ids
                    if revealed is not None and cases(other) == revealed
                )
    return problems


def _loadable(root: Path, ids: list[str]) -> list[Exercise]:
    exercises = []
    for exercise_id in ids:
        # A broken folder is reported by its own validation.
        with contextlib.suppress(GraderError):
            exercises.append(load_exercise(root / exercise_id))
    return exercises


def exercise_folders(paths: list[Path]) -> list[Path]:
    """The exercise folders named, or found one level below a named catalog folder."""
    folders = []
    for path in paths:
        if (path / "exercise.toml").is_file():
            folders.append(path)
        elif path.is_dir():
            folders += sorted(
                p for p in path.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))
            )
        else:
            folders.append(path)
    return folders
