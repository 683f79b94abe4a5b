"""graders/validation.py: ``numjudge validate`` on good and deliberately broken folders."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from graders import Sandbox
from graders.scaffold import create_exercise
from graders.validation import ValidationResult, exercise_folders, validate_folder
from tests.graders.helpers import (
    GATE,
    GATE_HIDDEN,
    GATE_PUBLIC,
    HIDDEN_VALUES,
    edit,
    gate_solution,
    make_tiny_exercise,
    write,
)

BATCH_CONSISTENCY = ("batch consistency: the batched result differs from the results of "
                     "single examples (details are not shown for hidden tests)")
GATE_SCORE = "mutation score 100% (16 of 16 non-equivalent mutants fail a hidden case)"
GOOD_NOTES = ["13 cases (11 hidden), 15 mistakes, languages: en, ja", GATE_SCORE]


def validated(folder: Path, sandbox: Sandbox) -> ValidationResult:
    result = validate_folder(folder, sandbox)
    assert result.path == folder
    return result


def test_good_folder_passes(sandbox: Sandbox) -> None:
    result = validated(GATE, sandbox)
    assert result.problems == []
    assert result.ok
    assert result.notes == GOOD_NOTES


def test_the_reference_and_its_costliest_case_are_measured_against_the_limits(
        sandbox: Sandbox) -> None:
    costs = validated(GATE, sandbox).costs
    cost = r"\d+\.\d\d s CPU of 5 s \(\d+ %\), \d+\.\d MB peak memory of 512 MB \(\d+ %\)"
    assert len(costs) == 2
    assert re.fullmatch(f"reference: {cost}", costs[0]), costs
    case = re.fullmatch(f"slowest case, run alone: '([a-z ]+)', {cost}", costs[1])
    assert case and case.group(1) in GATE_PUBLIC + GATE_HIDDEN, costs


def test_good_copy_passes(gate_copy: Path, sandbox: Sandbox) -> None:
    result = validated(gate_copy, sandbox)
    assert (result.ok, result.problems, result.notes) == (True, [], GOOD_NOTES)


def test_tiny_exercise_passes(tmp_path: Path, sandbox: Sandbox) -> None:
    result = validated(make_tiny_exercise(tmp_path), sandbox)
    assert result.problems == []
    assert result.notes == ["2 cases (1 hidden), 0 mistakes, languages: en",
                            "mutation score 100% (1 of 1 non-equivalent mutants fail a hidden "
                            "case)"]


def test_broken_metadata_is_the_only_problem(gate_copy: Path, sandbox: Sandbox) -> None:
    edit(gate_copy / "exercise.toml", 'entry = "update_gate"\n', "")
    result = validated(gate_copy, sandbox)
    assert not result.ok
    assert result.problems == ["gru-update-gate/exercise.toml: field 'entry' is missing or not "
                               "a non-empty string"]
    assert result.notes == []


def test_starter_that_passes(gate_copy: Path, sandbox: Sandbox) -> None:
    shutil.copy(gate_copy / "solution.py", gate_copy / "starter.py")
    result = validated(gate_copy, sandbox)
    assert result.problems == ["starter.py: passes every case; the starter must fail"]


def test_starter_with_a_syntax_error(gate_copy: Path, sandbox: Sandbox) -> None:
    write(gate_copy / "starter.py", """
        import numpy as np

        def update_gate(h_prev, x_t, W_z, b_z)
            return np.zeros(np.shape(h_prev))
    """)
    result = validated(gate_copy, sandbox)
    assert len(result.problems) == 1
    assert result.problems[0].startswith(
        "starter.py: must import and run, but got error: Your code could not be loaded: raised "
        "SyntaxError on line 4: ")


def test_starter_that_does_not_define_the_entry(gate_copy: Path, sandbox: Sandbox) -> None:
    edit(gate_copy / "starter.py", "def update_gate(", "def gate(")
    result = validated(gate_copy, sandbox)
    assert result.problems == [
        "starter.py: must import and run, but got error: Your code could not be loaded: raised "
        "NameError: the code does not define a function named 'update_gate'"]


def test_reference_that_fails_in_the_sandbox(gate_copy: Path, sandbox: Sandbox) -> None:
    # The trusted side passes copies to the reference; in the sandbox the in-place change shows.
    with (gate_copy / "solution.py").open("a", encoding="utf-8") as file:
        file.write("\n\n_reference = update_gate\n\n\ndef update_gate(h_prev, x_t, W_z, b_z):\n"
                   "    z = _reference(h_prev, x_t, W_z, b_z)\n    x_t *= 2\n    return z\n")
    result = validated(gate_copy, sandbox)
    assert len(result.problems) == 1
    inputs = ("inputs: the function changed its input 'x_t' in place; work on a copy (e.g. x = "
              "x.copy()) or build new arrays")
    assert result.problems[0].startswith(
        f"solution.py: does not pass its own cases in the sandbox (failed): numerical example: "
        f"{inputs}; batch of two: {inputs}; ")


def test_mistake_that_fails_no_hidden_case(gate_copy: Path, sandbox: Sandbox) -> None:
    write(gate_copy / "mistakes" / "zz_harmless.py",
          'HINT = "never needed"\n\n' + gate_solution())
    result = validated(gate_copy, sandbox)
    assert result.problems == ["mistakes/zz_harmless.py: fails no hidden case; add a hidden case "
                               "it gets wrong"]
    assert result.notes == ["13 cases (11 hidden), 16 mistakes, languages: en, ja", GATE_SCORE]


def test_mistake_failing_only_public_cases(gate_copy: Path, sandbox: Sandbox) -> None:
    write(gate_copy / "mistakes" / "zz_public_only.py", 'HINT = "only the example"\n\n'
          + gate_solution() + "\n\n_reference = update_gate\n\n\n"
          "def update_gate(h_prev, x_t, W_z, b_z):\n"
          "    z = _reference(h_prev, x_t, W_z, b_z)\n"
          "    return -z if h_prev.flat[0] == 0.8 else z\n")
    result = validated(gate_copy, sandbox)
    assert result.problems == ["mistakes/zz_public_only.py: fails no hidden case; add a hidden "
                               "case it gets wrong"]


def test_mistakes_the_outputs_cannot_tell_apart(gate_copy: Path, sandbox: Sandbox) -> None:
    # The same wrong code twice with different hints: neither hint can be shown.
    text = (gate_copy / "mistakes" / "one_minus_z.py").read_text(encoding="utf-8")
    write(gate_copy / "mistakes" / "one_minus_z_again.py",
          text.replace('HINT = ("Your gate and', 'HINT = ("Again: your gate and'))
    result = validated(gate_copy, sandbox)
    assert result.problems == [
        f"mistakes/{name}: its hint is not the diagnosis of its own output (it gives the same "
        f"outputs as {other} on every case; add a case that tells them apart)"
        for name, other in (("one_minus_z.py", "one_minus_z_again.py"),
                            ("one_minus_z_again.py", "one_minus_z.py"))]


def test_non_deterministic_cases(gate_copy: Path, sandbox: Sandbox) -> None:
    edit(gate_copy / "cases.py", "    return random_inputs(rng, H=4, D=6, N=8)",
         "    return random_inputs(np.random.default_rng(), H=4, D=6, N=8)")
    result = validated(gate_copy, sandbox)
    assert result.problems == ["cases.py: case 'batched' makes different inputs on each run; "
                               "draw them from the rng argument"]


def test_non_deterministic_reference(gate_copy: Path, sandbox: Sandbox) -> None:
    edit(gate_copy / "solution.py", "    return sigmoid(joined @ W_z.T + b_z)",
         "    noise = np.random.default_rng().normal() if h_prev.shape == (1,) else 0.0\n"
         "    return sigmoid(joined @ W_z.T + b_z) + noise")
    result = validated(gate_copy, sandbox)
    # The trusted side computed the expected output with one draw, the sandbox with another.
    assert result.problems == [
        f"solution.py: does not pass its own cases in the sandbox (failed): single hidden unit: "
        f"{HIDDEN_VALUES}; single hidden unit batched: {BATCH_CONSISTENCY}; one unit batch "
        f"as long as the joined input: {BATCH_CONSISTENCY}"]


def test_statement_not_naming_the_entry(gate_copy: Path, sandbox: Sandbox) -> None:
    edit(gate_copy / "statement.md", "update_gate", "the_gate", count=0)
    result = validated(gate_copy, sandbox)
    assert result.problems == ["statement.md: never names the entry function 'update_gate'; "
                               "say what the learner must write"]


def test_failing_warnings_need_a_statement_that_says_so(gate_copy: Path,
                                                        sandbox: Sandbox) -> None:
    edit(gate_copy / "exercise.toml", "[limits]", '[checks]\nwarnings = "fail"\n\n[limits]')
    edit(gate_copy / "statement.md", "warning", "complaint", count=0)
    result = validated(gate_copy, sandbox)
    assert result.problems == ["statement.md: never mentions warnings, but exercise.toml's "
                               '[checks] warnings = "fail" fails a test whose call warns; say '
                               "so in the statement"]


def test_a_reference_that_warns_fails_where_warnings_fail(gate_copy: Path,
                                                          sandbox: Sandbox) -> None:
    edit(gate_copy / "exercise.toml", "[limits]", '[checks]\nwarnings = "fail"\n\n[limits]')
    edit(gate_copy / "solution.py", "    return", "    np.exp(np.float64(1000.0))\n    return")
    problems = validated(gate_copy, sandbox).problems
    assert problems[0].startswith("solution.py: does not pass its own cases in the sandbox "
                                  "(failed): numerical example: warnings: the values are right")


def test_no_hidden_case(tmp_path: Path, sandbox: Sandbox) -> None:
    folder = make_tiny_exercise(tmp_path)
    edit(folder / "cases.py", "@case(points=2)", "@case(public=True, points=2)")
    result = validated(folder, sandbox)
    assert result.problems == ["cases.py: has no hidden case; add cases without public=True"]


def test_solution_raising_is_reported_before_grading(tmp_path: Path, sandbox: Sandbox) -> None:
    folder = make_tiny_exercise(tmp_path)
    write(folder / "solution.py", """
        def count_above(x, threshold):
            raise NotImplementedError("later")
    """)
    result = validated(folder, sandbox)
    assert result.problems == ["count-above/solution.py: raised NotImplementedError on case "
                               "'example': later"]


def test_a_nan_input_is_deterministic(tmp_path: Path, sandbox: Sandbox) -> None:
    # Inputs may be Python numbers; float("nan") is the same input on every run.
    folder = make_tiny_exercise(tmp_path)
    with (folder / "cases.py").open("a", encoding="utf-8") as file:
        file.write('\n\n@case\ndef nan_threshold(rng):\n'
                   '    return {"x": rng.normal(size=4), "threshold": float("nan")}\n')
    result = validated(folder, sandbox)
    assert result.problems == []


def test_exercise_folders_expands_a_catalog(tmp_path: Path) -> None:
    make_tiny_exercise(tmp_path, "b-two")
    make_tiny_exercise(tmp_path, "a-one")
    (tmp_path / ".git").mkdir()
    (tmp_path / "_drafts").mkdir()
    (tmp_path / "README.md").write_text("x\n")
    single = tmp_path / "a-one"
    missing = tmp_path / "missing"
    assert exercise_folders([tmp_path]) == [tmp_path / "a-one", tmp_path / "b-two"]
    assert exercise_folders([single, missing]) == [single, missing]


def test_a_scaffold_with_a_working_solution_still_needs_its_texts(tmp_path: Path,
                                                                  sandbox: Sandbox) -> None:
    folder = create_exercise(tmp_path, "my-ex")
    write(folder / "solution.py", """
        import numpy as np


        def solve(x):
            return np.cumsum(x)
    """)
    for mistake in (folder / "mistakes").iterdir():
        mistake.unlink()
    result = validated(folder, sandbox)
    assert result.problems == [
        "exercise.toml: the title is still the placeholder 'My ex'; write what the exercise "
        "is about",
        "exercise.toml: 'tags' is empty; add at least one tag",
        "statement.md: still has the template's placeholder text '(say what to compute, with "
        "the math'…; write the statement",
    ]


def test_case_inputs_must_be_named_as_the_entrys_parameters(tmp_path: Path,
                                                            sandbox: Sandbox) -> None:
    folder = make_tiny_exercise(tmp_path)
    edit(folder / "cases.py", '"threshold"', '"limit"', count=0)
    result = validated(folder, sandbox)
    assert result.problems == [
        f"cases.py: case {name!r} gives (x, limit) but count_above(x, threshold) is called "
        "with them in that order; name and order the inputs as the entry function's parameters"
        for name in ("example", "random values")]


def test_a_mistake_that_breaks_the_rules_is_named(gate_copy: Path, sandbox: Sandbox) -> None:
    # A learner who made this mistake would be told of the rules, never of the mistake.
    edit(gate_copy / "exercise.toml", "[limits]", '[rules]\nforbid = ["python-loop"]\n\n[limits]')
    write(gate_copy / "mistakes" / "zz_looped.py", 'HINT = "each row on its own"\n\n'
          + gate_solution() + "\n\n_reference = update_gate\n\n\n"
          "def update_gate(h_prev, x_t, W_z, b_z):\n"
          "    return _reference(h_prev, x_t, W_z, b_z) * sum(1 for _ in [0])\n")
    result = validated(gate_copy, sandbox)
    line = (gate_copy / "mistakes" / "zz_looped.py").read_text().count("\n")
    assert result.problems == [f"mistakes/zz_looped.py: breaks the exercise's [rules]: line "
                               f"{line}: a Python loop (generator expression)"]
