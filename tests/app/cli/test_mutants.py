"""app/cli/mutants.py: ``numjudge mutants`` lists and promotes mutants (Typer's CliRunner)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from app.cli.main import app
from graders.api import load_exercise
from graders.authoring.validation import validate_folder
from graders.sandbox.runner import Sandbox
from tests.graders.helpers import edit

runner = CliRunner()


@pytest.fixture
def catalog(gate_copy: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("NUMJUDGE_EXERCISES_DIR", str(gate_copy.parent))
    return gate_copy.parent


def test_lists_each_mutant_with_its_cases_and_the_score(catalog: Path) -> None:
    result = runner.invoke(app, ["mutants", "gru-update-gate"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    swap = next(i for i, line in enumerate(lines) if "swap_concat" in line)
    assert lines[swap].split()[1] == "swap_concat"
    assert "line 14, column 13" in lines[swap]
    assert lines[swap + 1].strip() == "with the two concatenated vectors in the opposite order"
    assert lines[swap + 2].strip().startswith("caught by 13 case(s): numerical example, ")
    assert lines[-1].endswith("non-equivalent mutants fail a hidden case)")
    assert "no hidden case catches" not in result.stdout


def test_promote_writes_a_mistake_with_a_hint_to_fill_in(catalog: Path) -> None:
    listing = runner.invoke(app, ["mutants", "gru-update-gate"]).stdout.splitlines()
    number = next(int(line.split()[0]) for line in listing if " swap_concat " in line)
    result = runner.invoke(app, ["mutants", "gru-update-gate", "--promote", str(number)])
    assert result.exit_code == 0, result.output
    written = catalog / "gru-update-gate" / "mistakes" / "swap_concat_14_13.py"
    assert result.stdout.startswith(f"wrote {written}")
    text = written.read_text()
    assert text.startswith('"""with the two concatenated vectors in the opposite order')
    assert "HINT = 'TODO: say what the learner should reconsider" in text
    assert "np.concatenate([x_t, h_prev], axis=-1)" in text
    mistakes = [m.name for m in load_exercise(catalog / "gru-update-gate").mistakes]
    assert "swap_concat_14_13" in mistakes
    again = runner.invoke(app, ["mutants", "gru-update-gate", "--promote", str(number)])
    assert again.exit_code == 2 and "exists" in again.output


@pytest.mark.slow
def test_validate_fails_below_the_mutation_score_floor(gate_copy: Path) -> None:
    # With every hidden case a zero-bias one, no hidden case tells the missing bias apart.
    edit(
        gate_copy / "cases.py",
        '        "b_z": rng.normal(size=H),',
        '        "b_z": 0.0 * rng.normal(size=H),',
    )
    for name in ("large_pre_activations", "positive_bias_initialisation"):
        edit(
            gate_copy / "cases.py",
            f"def {name}(rng):",
            # Batched, as the cases' batch axes say (a single example of an unbatched
            # input is no example: validate refuses such a case first).
            f"def {name}(rng):\n    return "
            "random_inputs(rng, H=2, D=2, N=3)\n\n\ndef _unused_" + name + "(rng):",
        )
    with Sandbox(workers=1) as sandbox:
        result = validate_folder(gate_copy, sandbox)
    score = [p for p in result.problems if "mutation score" in p]
    assert score and "without the added term b_z" in score[0], result.problems
    assert "numjudge mutants gru-update-gate" in score[0]
