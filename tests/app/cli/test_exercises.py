"""app/cli/exercises.py: ``numjudge grade``, ``validate`` and ``new`` through Typer's CliRunner."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest
from typer.testing import CliRunner

from app.cli.main import app
from graders.api import load_exercise
from tests.graders.helpers import GATE, GATE_HIDDEN, GATE_PUBLIC

runner = CliRunner()


@pytest.fixture
def catalog(gate_copy: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A catalog holding a private copy of gru-update-gate, named by NUMJUDGE_EXERCISES_DIR."""
    monkeypatch.setenv("NUMJUDGE_EXERCISES_DIR", str(gate_copy.parent))
    return gate_copy.parent


@pytest.mark.slow
def test_grade_the_reference_exits_0_and_prints_the_table(catalog: Path) -> None:
    result = runner.invoke(app, ["grade", "gru-update-gate", str(GATE / "solution.py")])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    version = load_exercise(catalog / "gru-update-gate").version
    assert lines[0] == f"gru-update-gate  (version {version})"
    rows = [line for line in lines if line.startswith(("PASS", "FAIL", "ERR"))]
    assert [row.split("  ")[1].strip() for row in rows] == GATE_PUBLIC + GATE_HIDDEN
    assert all(row.startswith("PASS") for row in rows)
    assert rows[0] == "PASS  numerical example                               1/1"
    assert rows[2] == "PASS  unbatched more units than inputs                2/2 [hidden]"
    assert lines[-2].startswith("verdict: passed   score: 26/26   (")
    # The author's own grading shows what the whole run used, against the exercise's limits.
    assert re.fullmatch(
        r"cost: \d+\.\d\d s CPU of 5 s \(\d+ %\), \d+\.\d MB peak memory of "
        r"512 MB \(\d+ %\)",
        lines[-1],
    ), lines[-1]


@pytest.mark.slow
def test_grade_a_mistake_exits_1_and_prints_its_hint(catalog: Path) -> None:
    mistake = GATE / "mistakes" / "one_minus_z.py"
    result = runner.invoke(app, ["grade", "gru-update-gate", str(mistake)])
    assert result.exit_code == 1, result.output
    assert "FAIL  numerical example                               0/1\n" in result.stdout
    assert (
        "\nhint (numerical example, batch of two, unbatched more units than inputs,"
        in result.stdout
    )
    assert result.stdout.count("Your gate and the expected") == 1  # one hint, not one per test
    assert result.stdout.splitlines()[-2].startswith("verdict: failed   score: 0/26   (")


@pytest.mark.slow
def test_grade_public_only(catalog: Path) -> None:
    result = runner.invoke(
        app, ["grade", "--public-only", "gru-update-gate", str(GATE / "solution.py")]
    )
    assert result.exit_code == 0, result.output
    assert "[hidden]" not in result.stdout
    assert "verdict: passed   score: 2/2   (" in result.stdout


def test_grade_an_unknown_exercise_exits_2_naming_where_it_looked(catalog: Path) -> None:
    result = runner.invoke(app, ["grade", "no-such-thing", str(GATE / "solution.py")])
    assert result.exit_code == 2
    assert result.stderr == (
        f"error: Exercise 'no-such-thing' not found in {catalog.resolve()}: the exercise is"
        " looked up by id in $NUMJUDGE_EXERCISES_DIR (default: ./exercises); run from the"
        " folder that holds exercises/, or set NUMJUDGE_EXERCISES_DIR to the folder that holds"
        " the exercise's folder\n"
    )


def test_grade_outside_the_repository_names_the_exercises_folder_of_the_current_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An author who wrote the exercise in a scratch folder and runs grade from the repository
    # (or the other way round) is told which folder was searched, not only that it failed.
    monkeypatch.delenv("NUMJUDGE_EXERCISES_DIR", raising=False)
    monkeypatch.chdir(tmp_path)
    for command in (
        ["grade", "my-exercise", str(GATE / "solution.py")],
        ["mutants", "my-exercise"],
    ):
        result = runner.invoke(app, command)
        assert result.exit_code == 2, command
        assert result.stderr.startswith(
            f"error: Exercise 'my-exercise' not found in {tmp_path.resolve() / 'exercises'}: "
        ), result.stderr
        assert "set NUMJUDGE_EXERCISES_DIR" in result.stderr


def test_grade_a_missing_file_is_a_usage_error(
    catalog: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["grade", "gru-update-gate", "nope.py"])
    assert result.exit_code == 2
    assert "Invalid value for 'file': file 'nope.py' does not exist." in result.output


COSTS = (
    r"     reference: [^\n]+ of 5 s [^\n]+ of 512 MB [^\n]+\n"
    r"     slowest case, run alone: '[a-z ]+', [^\n]+ of 5 s [^\n]+ of 512 MB [^\n]+\n"
)


@pytest.mark.slow
def test_validate_a_good_folder_exits_0() -> None:
    result = runner.invoke(app, ["validate", str(GATE)])
    assert result.exit_code == 0, result.output
    assert re.fullmatch(
        re.escape(
            "ok   gru-update-gate  (13 cases (11 hidden), 15 mistakes, "
            "languages: en, ja; mutation score 100% (21 of 21 "
            "non-equivalent mutants fail a hidden case); 2 sample(s))\n"
        )
        + COSTS
        + re.escape("1 of 1 exercise(s) valid\n"),
        result.stdout,
    ), result.stdout


@pytest.mark.slow
def test_validate_a_broken_folder_exits_1_and_lists_the_problem(gate_copy: Path) -> None:
    for starter in ("starter.py", "starter.ja.py"):  # validate asks for the same code in both
        (gate_copy / starter).write_text((gate_copy / "solution.py").read_text())
    result = runner.invoke(app, ["validate", str(gate_copy)])
    assert result.exit_code == 1
    assert re.fullmatch(
        re.escape(
            "FAIL gru-update-gate  (13 cases (11 hidden), 15 mistakes, languages: en, ja; mutation "
            "score 100% (21 of 21 non-equivalent mutants fail a hidden case); 2 sample(s))\n"
        )
        + COSTS
        + re.escape(
            "     - starter.py: passes every case; the starter must fail\n"
            "0 of 1 exercise(s) valid\n"
        ),
        result.stdout,
    ), result.stdout


LOUD_MISTAKE = """\
import warnings

import numpy as np

HINT = "loud"
warnings.warn("the mistake file warns as it loads")


def update_gate(x_t, h_prev, W_z, b_z):
    warnings.warn("the mistake warns when called")
    joined = np.concatenate([h_prev, x_t], axis=-1)
    return 1.0 - 1.0 / (1.0 + np.exp(-(joined @ W_z.T + b_z)))
"""


@pytest.mark.slow
@pytest.mark.parametrize("command", ["grade", "validate"])
def test_the_mistake_files_own_warnings_are_captured(catalog: Path, command: str) -> None:
    # They used to be printed between the report's lines.
    (catalog / "gru-update-gate" / "mistakes" / "zz_loud.py").write_text(LOUD_MISTAKE)
    arguments = (
        ["grade", "gru-update-gate", str(GATE / "solution.py")]
        if command == "grade"
        else ["validate", str(catalog / "gru-update-gate")]
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = runner.invoke(app, arguments)
    assert result.exit_code in (0, 1), result.output
    assert [str(w.message) for w in caught if "mistake" in str(w.message)] == []


def test_validate_an_empty_catalog_exits_2(tmp_path: Path) -> None:
    result = runner.invoke(app, ["validate", str(tmp_path)])
    assert result.exit_code == 2
    assert result.stderr == "no exercise folders found\n"


def test_new_creates_a_folder_that_loads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("NUMJUDGE_EXERCISES_DIR", raising=False)
    result = runner.invoke(app, ["new", "gru-reset-gate"])
    assert result.exit_code == 0, result.output
    folder = Path("exercises") / "gru-reset-gate"
    assert result.stdout == (
        f"created {folder}; fill in the files, then run: numjudge validate {folder}\n"
    )
    assert load_exercise(tmp_path / folder).id == "gru-reset-gate"


def test_new_uses_the_exercises_dir_setting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NUMJUDGE_EXERCISES_DIR", str(tmp_path / "catalog"))
    result = runner.invoke(app, ["new", "lstm-cell"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "catalog" / "lstm-cell" / "exercise.toml").is_file()
    again = runner.invoke(app, ["new", "lstm-cell"])
    assert again.exit_code == 2
    assert again.stderr.startswith("error: [Errno 17] File exists: ")


def test_new_refuses_a_bad_id(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NUMJUDGE_EXERCISES_DIR", str(tmp_path))
    result = runner.invoke(app, ["new", "Bad_Id"])
    assert result.exit_code == 2
    assert result.stderr == (
        "error: 'Bad_Id': an id is lowercase words joined by hyphens, e.g. gru-reset-gate\n"
    )
    assert list(tmp_path.iterdir()) == []


def test_new_writes_the_kind_asked_for(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NUMJUDGE_EXERCISES_DIR", str(tmp_path))
    result = runner.invoke(app, ["new", "rnn-cell", "--kind", "class"])
    assert result.exit_code == 0, result.output
    assert load_exercise(tmp_path / "rnn-cell").entries == ("RunningMean",)
    wrong = runner.invoke(app, ["new", "other", "--kind", "module"])
    assert wrong.exit_code == 2
    assert not (tmp_path / "other").exists()
