"""``numjudge validate`` checks a catalog's course.toml after its exercise folders."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from app.cli.main import app

REPO = Path(__file__).resolve().parents[3]
runner = CliRunner()


def catalog_with_course(root: Path, course: str) -> Path:
    shutil.copytree(REPO / "exercises" / "gru-update-gate", root / "gru-update-gate")
    (root / "course.toml").write_text(course, encoding="utf-8")
    return root


COURSE = """
[[assignment]]
id = "first"
title = "First steps"
opens = 2026-12-01T09:00:00Z
due = 2026-12-08T23:59:00Z
exercises = ["{exercise}"]
"""


@pytest.mark.slow
def test_a_good_course_is_reported_with_its_assignments(tmp_path: Path) -> None:
    root = catalog_with_course(tmp_path, COURSE.format(exercise="gru-update-gate"))
    result = runner.invoke(app, ["validate", str(root)])
    assert result.exit_code == 0, result.output
    assert (
        f"ok   {root / 'course.toml'}  (1 assignment(s), 0 exercise(s) for practice only)"
        in result.output.splitlines()
    )


@pytest.mark.slow
def test_a_course_naming_a_missing_exercise_fails_validation(tmp_path: Path) -> None:
    root = catalog_with_course(tmp_path, COURSE.format(exercise="gru-reset-gate"))
    result = runner.invoke(app, ["validate", str(root)])
    assert result.exit_code == 1, result.output
    assert "1 of 1 exercise(s) valid" in result.output
    assert f"FAIL {root / 'course.toml'}" in result.output.splitlines()
    assert (
        "     - course.toml: assignment 'first': exercise 'gru-reset-gate' is not in the "
        "exercises folder"
    ) in result.output.splitlines()


@pytest.mark.slow
def test_a_course_may_not_assign_a_draft(tmp_path: Path) -> None:
    root = catalog_with_course(tmp_path, COURSE.format(exercise="gru-update-gate"))
    toml = root / "gru-update-gate" / "exercise.toml"
    toml.write_text(
        toml.read_text(encoding="utf-8").replace("order = 10", "order = 10\ndraft = true"),
        encoding="utf-8",
    )
    result = runner.invoke(app, ["validate", str(root)])
    assert result.exit_code == 1, result.output
    assert (
        "     - assignments name draft exercise(s) gru-update-gate, which learners cannot "
        "see; publish them or take them out"
    ) in result.output.splitlines()


def test_a_course_file_named_alone_is_checked_without_its_exercises(tmp_path: Path) -> None:
    root = catalog_with_course(tmp_path, COURSE.format(exercise="gru-reset-gate"))
    result = runner.invoke(app, ["validate", str(root / "course.toml")])
    assert result.exit_code == 1, result.output
    assert "exercise(s) valid" not in result.output  # no exercise folder was validated
    assert f"FAIL {root / 'course.toml'}" in result.output.splitlines()
    fixed = catalog_with_course(tmp_path / "fixed", COURSE.format(exercise="gru-update-gate"))
    result = runner.invoke(app, ["validate", str(fixed / "course.toml")])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        f"ok   {fixed / 'course.toml'}  (1 assignment(s), 0 exercise(s) for practice only)"
    ]


def test_a_later_assignment_may_not_reuse_the_cases_a_revealing_one_shows(tmp_path: Path) -> None:
    course = COURSE.format(exercise="gru-update-gate").replace(
        'exercises = ["gru-update-gate"]',
        'exercises = ["gru-update-gate"]\nreveal_hidden_after_close = true',
    ) + COURSE.format(exercise="gate-again").replace('"first"', '"second"').replace(
        "2026-12-08", "2026-12-15"
    )
    root = catalog_with_course(tmp_path, course)
    shutil.copytree(root / "gru-update-gate", root / "gate-again")
    toml = root / "gate-again" / "exercise.toml"
    toml.write_text(
        toml.read_text(encoding="utf-8").replace('id = "gru-update-gate"', 'id = "gate-again"'),
        encoding="utf-8",
    )
    result = runner.invoke(app, ["validate", str(root / "course.toml")])
    assert result.exit_code == 1, result.output
    assert (
        "     - gate-again: its cases.py is that of gru-update-gate, whose hidden tests "
        "assignment 'first' reveals once closed, before 'second' is due; give it new cases"
    ) in result.output.splitlines()
    # Without the reveal, a copy's cases stay hidden: nothing to say.
    (root / "course.toml").write_text(
        course.replace("reveal_hidden_after_close = true", ""), encoding="utf-8"
    )
    assert runner.invoke(app, ["validate", str(root / "course.toml")]).exit_code == 0
