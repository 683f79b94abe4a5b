"""``numjudge mistakes mine`` (Typer's CliRunner) on both databases: a real class's groups
listed, one written as a mistake with its hints and its submissions diagnosed again, a
refusal with its reason."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select
from typer.testing import CliRunner

from app.cli.main import app as cli
from app.core.config import get_settings
from app.models import Submission
from app.runtime.context import GradingRuntime
from app.runtime.engine import SandboxGrader
from app.services import mining
from tests.app.conftest import make_runtime, make_settings, wipe
from tests.app.mined_class import EXERCISE, HALVED, HALVED_OTHERWISE, HINT, SQUARED, graded

runner = CliRunner()


@pytest.fixture
def class_runtime(
    database_url: str,
    gate_copy: Path,
    shared_grader: SandboxGrader,
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[GradingRuntime]:
    monkeypatch.setenv("NUMJUDGE_DATABASE_URL", database_url)
    monkeypatch.setenv("NUMJUDGE_EXERCISES_DIR", str(gate_copy.parent))
    monkeypatch.setenv("NUMJUDGE_QUEUE_URL", "memory://")
    get_settings.cache_clear()
    settings = make_settings(database_url, gate_copy.parent, exercises_dir=gate_copy.parent)
    yield make_runtime(settings, shared_grader)
    get_settings.cache_clear()
    wipe(database_url)


def test_lists_the_groups_then_writes_one_as_a_mistake(
    class_runtime: GradingRuntime, gate_copy: Path
) -> None:
    submit = graded(class_runtime)
    ada, bo, cy = submit("ada", HALVED), submit("bo", HALVED_OTHERWISE), submit("cy", SQUARED)
    listing = runner.invoke(cli, ["mistakes", "mine", EXERCISE, "--show"])
    assert listing.exit_code == 0, listing.output
    lines = listing.stdout.splitlines()
    assert lines[0].startswith(f"{EXERCISE} (version ")
    assert lines[0].endswith("3 wrong submission(s) without a hint, in 2 group(s)")
    assert lines[1].endswith(f"2 submission(s) by 2 learner(s); representative {ada}")
    assert lines[2].startswith("     fails: numerical example (values), batch of two (values)")
    assert lines[3].startswith("     on numerical example: values: ")
    assert lines[4:10] == [f"     | {line}" for line in HALVED.splitlines()]
    assert lines[10].endswith(f"1 submission(s) by 1 learner(s); representative {cy}")
    key = lines[1].split("[")[1].split("]")[0]

    write = ["mistakes", "mine", EXERCISE, "--write", key, "--hint", HINT]
    unread = runner.invoke(cli, [*write, "--name", "halved", "--translated-hint", "ja=半分"])
    assert unread.exit_code == 1
    assert f"refused: {mining.NOT_REVIEWED}" in unread.output
    refused = runner.invoke(
        cli,
        [*write, "--name", "missing_bias", "--translated-hint", "ja=半分", "--reviewed", ada],
    )
    assert refused.exit_code == 1
    assert "refused: mistakes/missing_bias.py already exists; choose another name" in refused.output
    assert not (gate_copy / "mistakes" / "mined" / "halved.py").exists()

    written = runner.invoke(
        cli,
        [
            "mistakes",
            "mine",
            EXERCISE,
            "--write",
            key,
            "--name",
            "halved",
            "--hint",
            HINT,
            "--translated-hint",
            "ja=半分です。",
            "--reviewed",
            ada,
        ],
    )
    assert written.exit_code == 0, written.output
    assert written.stdout.splitlines() == [
        f"wrote {gate_copy / 'mistakes' / 'mined' / 'halved.py'}",
        "2 of 3 submission(s) now have a hint",
    ]
    with class_runtime.sessions() as session:
        hints = {
            row.id: (row.diagnosis or {}).get("hint") for row in session.scalars(select(Submission))
        }
    assert hints == {ada: HINT, bo: HINT, cy: None}
    after = runner.invoke(cli, ["mistakes", "mine", EXERCISE]).stdout.splitlines()
    assert after[0].endswith("1 wrong submission(s) without a hint, in 1 group(s)")


def test_an_unknown_exercise_is_an_error(class_runtime: GradingRuntime) -> None:
    result = runner.invoke(cli, ["mistakes", "mine", "no-such-exercise"])
    assert result.exit_code == 2
    assert "error:" in result.output
