"""graders/authoring/validation.py: ``numjudge validate`` on good and deliberately broken
folders."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from graders.api import ExerciseError, PreparedExercise, Sandbox, load_exercise
from graders.authoring.mistakes import check_mutants
from graders.authoring.result import ValidationResult
from graders.authoring.sample_checks import unsteady
from graders.authoring.samples import Expectation
from graders.authoring.scaffold import create_exercise
from graders.authoring.validation import exercise_folders, validate_folder
from graders.results import Verdict
from tests.graders.helpers import (
    GATE,
    GATE_HIDDEN,
    GATE_PUBLIC,
    edit,
    gate_solution,
    make_tiny_exercise,
    wrapped_solution,
    write,
    write_mistake,
)
from tests.graders.typed_exercises import make_dropout, make_sgd_step, make_softmax_loss

# 18 since the float32 mutant of its sigmoid helper and a reshape for its transpose joined.
GATE_SCORE = "mutation score 100% (21 of 21 non-equivalent mutants fail a hidden case)"
GOOD_NOTES = ["13 cases (11 hidden), 15 mistakes, languages: en, ja", GATE_SCORE, "2 sample(s)"]


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
    sandbox: Sandbox,
) -> None:
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
    assert result.notes == [
        "2 cases (1 hidden), 0 mistakes, languages: en",
        "mutation score 100% (1 of 1 non-equivalent mutants fail a hidden case)",
    ]


def test_broken_metadata_is_the_only_problem(gate_copy: Path, sandbox: Sandbox) -> None:
    edit(gate_copy / "exercise.toml", 'entry = "update_gate"\n', "")
    result = validated(gate_copy, sandbox)
    assert not result.ok
    assert result.problems == [
        "gru-update-gate/exercise.toml: give either 'entry' (the function the learner writes) "
        "or 'entries' (the functions and classes the scenarios call), not both or neither"
    ]
    assert result.notes == []


STARTERS = ("starter.py", "starter.ja.py")
"""The gate's starters: the Japanese one must keep the English one's code (validate checks)."""


def test_starter_that_passes(gate_copy: Path, sandbox: Sandbox) -> None:
    for starter in STARTERS:
        shutil.copy(gate_copy / "solution.py", gate_copy / starter)
    result = validated(gate_copy, sandbox)
    assert result.problems == ["starter.py: passes every case; the starter must fail"]


def test_starter_with_a_syntax_error(gate_copy: Path, sandbox: Sandbox) -> None:
    write(
        gate_copy / "starter.py",
        """
        import numpy as np

        def update_gate(x_t, h_prev, W_z, b_z)
            return np.zeros(np.shape(h_prev))
    """,
    )
    result = validated(gate_copy, sandbox)
    assert len(result.problems) == 1
    assert result.problems[0].startswith(
        "starter.py: must import and run, but got error: Your code could not be loaded: raised "
        "SyntaxError on line 4: "
    )


def test_starter_that_does_not_define_the_entry(gate_copy: Path, sandbox: Sandbox) -> None:
    for starter in STARTERS:
        edit(gate_copy / starter, "def update_gate(", "def gate(")
    result = validated(gate_copy, sandbox)
    assert result.problems == [
        "starter.py: must import and run, but got error: Your code could not be loaded: raised "
        "NameError: the code does not define a function named 'update_gate'"
    ]


def test_reference_that_fails_in_the_sandbox(gate_copy: Path, sandbox: Sandbox) -> None:
    # The trusted side passes copies to the reference; in the sandbox the in-place change shows.
    with (gate_copy / "solution.py").open("a", encoding="utf-8") as file:
        file.write(
            "\n\n_reference = update_gate\n\n\ndef update_gate(x_t, h_prev, W_z, b_z):\n"
            "    z = _reference(x_t, h_prev, W_z, b_z)\n    x_t *= 2\n    return z\n"
        )
    result = validated(gate_copy, sandbox)
    assert len(result.problems) == 1
    inputs = (
        "inputs: the function changed its input 'x_t' in place; work on a copy (e.g. x = "
        "x.copy()) or build new arrays"
    )
    assert result.problems[0].startswith(
        f"solution.py: does not pass its own cases in the sandbox (failed): numerical example: "
        f"{inputs}; batch of two: {inputs}; "
    )
    # The author reads the hidden tests' full messages, not the learner's redacted ones.
    assert f"batched: {inputs}; " in result.problems[0]
    assert "not shown" not in result.problems[0]


def test_mistake_that_fails_no_hidden_case(gate_copy: Path, sandbox: Sandbox) -> None:
    write_mistake(gate_copy, "zz_harmless", 'HINT = "never needed"\n\n' + gate_solution())
    result = validated(gate_copy, sandbox)
    assert result.problems == [
        "mistakes/zz_harmless.py: fails no hidden case; add a hidden case it gets wrong"
    ]
    assert result.notes == [
        "13 cases (11 hidden), 16 mistakes, languages: en, ja",
        GATE_SCORE,
        "2 sample(s)",
    ]


def test_mistake_failing_only_public_cases(gate_copy: Path, sandbox: Sandbox) -> None:
    write_mistake(
        gate_copy,
        "zz_public_only",
        'HINT = "only the example"\n\n' + gate_solution() + "\n\n_reference = update_gate\n\n\n"
        "def update_gate(x_t, h_prev, W_z, b_z):\n"
        "    z = _reference(x_t, h_prev, W_z, b_z)\n"
        "    return -z if h_prev.flat[0] == 0.8 else z\n",
    )
    result = validated(gate_copy, sandbox)
    assert result.problems == [
        "mistakes/zz_public_only.py: fails no hidden case; add a hidden case it gets wrong"
    ]


def test_a_mistake_that_only_raises_on_hidden_cases_is_caught(
    gate_copy: Path, sandbox: Sandbox
) -> None:
    # The public cases have three units; the mistake raises on every other width.
    write_mistake(
        gate_copy,
        "zz_three_units",
        'HINT = "only three units"\n\n' + gate_solution() + "\n\n_reference = update_gate\n\n\n"
        "def update_gate(x_t, h_prev, W_z, b_z):\n"
        "    if h_prev.shape[-1] != 3:\n"
        "        raise ValueError('three units only')\n"
        "    return _reference(x_t, h_prev, W_z, b_z)\n",
    )
    result = validated(gate_copy, sandbox)
    assert result.problems == []


def test_mistakes_the_outputs_cannot_tell_apart(gate_copy: Path, sandbox: Sandbox) -> None:
    # The same wrong code twice with different hints: neither hint can be shown.
    text = (gate_copy / "mistakes" / "one_minus_z.py").read_text(encoding="utf-8")
    write_mistake(
        gate_copy,
        "one_minus_z_again",
        text.replace('HINT = ("Your gate and', 'HINT = ("Again: your gate and'),
    )
    result = validated(gate_copy, sandbox)
    assert result.problems[:2] == [
        f"mistakes/{name}: its hint is not the diagnosis of its own output (it gives the same "
        f"outputs as {other} on every case; add a case that tells them apart)"
        for name, other in (
            ("one_minus_z.py", "one_minus_z_again.py"),
            ("one_minus_z_again.py", "one_minus_z.py"),
        )
    ]
    # The sample written as that slip loses its diagnosis too, and says so.
    assert len(result.problems) == 3
    assert result.problems[2].startswith(
        "samples/returns_candidate_share.py: expected verdict=failed score=0 "
        "diagnosis=one_minus_z, got verdict=failed score=0 diagnosis=none: "
    )


def test_non_deterministic_cases(gate_copy: Path, sandbox: Sandbox) -> None:
    edit(
        gate_copy / "cases.py",
        "    return random_inputs(rng, H=4, D=6, N=8)",
        "    return random_inputs(np.random.default_rng(), H=4, D=6, N=8)",
    )
    result = validated(gate_copy, sandbox)
    assert result.problems == [
        "cases.py: case 'batched' makes different inputs on each run; "
        "draw them from the rng argument"
    ]


def test_non_deterministic_reference(gate_copy: Path, sandbox: Sandbox) -> None:
    edit(
        gate_copy / "solution.py",
        "    return sigmoid(joined @ W_z.T + b_z)",
        "    noise = np.random.default_rng().normal() if h_prev.shape == (1,) else 0.0\n"
        "    return sigmoid(joined @ W_z.T + b_z) + noise",
    )
    result = validated(gate_copy, sandbox)
    # Named as such, not as the failing cases it causes (the expected outputs are one draw).
    assert result.problems[0] == (
        "solution.py: is not deterministic: two calls on case 'single hidden unit' return "
        "different outputs; the expected outputs must follow from the inputs alone (no "
        "unseeded random numbers)"
    )
    assert not any(p.startswith("solution.py: does not pass") for p in result.problems)


@pytest.mark.parametrize(
    "threshold",
    # Below every x, whatever was drawn: the count, and so the mutation score, stay the same.
    ["-1000.0 - np.random.random()", "-float(time.perf_counter_ns())"],
    ids=["global generator", "clock"],
)
def test_inputs_from_outside_the_rng_argument_are_not_deterministic(
    threshold: str, tmp_path: Path, sandbox: Sandbox
) -> None:
    folder = make_tiny_exercise(tmp_path)
    edit(folder / "cases.py", "import numpy as np", "import time\n\nimport numpy as np")
    edit(folder / "cases.py", '"threshold": 0.0', f'"threshold": {threshold}')
    result = validated(folder, sandbox)
    assert result.problems == [
        "cases.py: case 'random values' makes different inputs on each run; "
        "draw them from the rng argument"
    ]


def test_a_reference_that_differs_from_one_load_to_the_next_grades_differently(
    tmp_path: Path, sandbox: Sandbox
) -> None:
    # Two calls in one process agree: only a second preparation and grading tells.
    folder = make_tiny_exercise(tmp_path)
    edit(
        folder / "solution.py",
        "def count_above",
        "OFFSET = int(np.random.default_rng().integers(1 << 30))\n\n\ndef count_above",
    )
    edit(folder / "solution.py", "x > threshold))", "x > threshold)) + OFFSET")
    problems = validated(folder, sandbox).problems
    assert (
        "grading is not deterministic: two gradings of the reference differ (seed every "
        "random input from the rng argument)"
    ) in problems
    assert not any(p.startswith("solution.py: is not deterministic") for p in problems)


def test_statement_not_naming_the_entry(gate_copy: Path, sandbox: Sandbox) -> None:
    edit(gate_copy / "statement.md", "update_gate", "the_gate", count=0)
    result = validated(gate_copy, sandbox)
    assert result.problems == [
        "statement.md: never names the entry function 'update_gate'; "
        "say what the learner must write"
    ]


def test_a_language_of_the_statement_needs_its_translation(
    gate_copy: Path, sandbox: Sandbox
) -> None:
    (gate_copy / "translation.ja.toml").unlink()
    assert validated(gate_copy, sandbox).problems == [
        "translation.ja.toml: missing; statement.ja.md gives the exercise this language, so its "
        "title, hints and test names need it too"
    ]


def test_a_translation_without_a_title_hint_or_test_name_is_refused(
    gate_copy: Path, sandbox: Sandbox
) -> None:
    translation = gate_copy / "translation.ja.toml"
    edit(translation, 'title = "GRU の更新ゲート"\n', "")
    edit(translation, "bias_subtracted = ", "# bias_subtracted = ")
    edit(translation, '"numerical example" = ', '# "numerical example" = ')
    assert validated(gate_copy, sandbox).problems == [
        "translation.ja.toml: 'title' is missing; write the exercise's title",
        "translation.ja.toml: [hints] has no text for mistake(s) 'bias_subtracted'",
        "translation.ja.toml: [cases] has no text for test(s) 'numerical example'",
    ]


def test_a_translation_naming_what_is_gone_is_stale(gate_copy: Path, sandbox: Sandbox) -> None:
    (gate_copy / "mistakes" / "bias_subtracted.py").unlink()
    edit(gate_copy / "cases.py", "def numerical_example(", "def worked_example(")
    for statement in ("statement.md", "statement.ja.md"):
        text = (gate_copy / statement).read_text(encoding="utf-8")
        (gate_copy / statement).write_text(
            text.replace("numerical example", "worked example"), encoding="utf-8"
        )
    (gate_copy / "translation.fr.toml").write_text('title = "La porte"\n', encoding="utf-8")
    assert validated(gate_copy, sandbox).problems == [
        "translation.fr.toml: there is no statement.fr.md; remove it or add one",
        "translation.ja.toml: [hints] names mistake(s) that do not exist: 'bias_subtracted' "
        "(renamed or removed?)",
        "translation.ja.toml: [cases] has no text for test(s) 'worked example'",
        "translation.ja.toml: [cases] names test(s) that do not exist: 'numerical example' "
        "(renamed or removed?)",
    ]


def test_a_translation_that_is_no_table_of_texts_is_refused(gate_copy: Path) -> None:
    (gate_copy / "translation.ja.toml").write_text("[hints]\nbias_subtracted = 1\n")
    with pytest.raises(ExerciseError, match=r"translation.ja.toml: \[hints\] must be a table"):
        load_exercise(gate_copy)


def test_failing_warnings_need_a_statement_that_says_so(gate_copy: Path, sandbox: Sandbox) -> None:
    edit(gate_copy / "exercise.toml", "[checks]\n", '[checks]\nwarnings = "fail"\n')
    edit(gate_copy / "statement.md", "warning", "complaint", count=0)
    result = validated(gate_copy, sandbox)
    assert result.problems == [
        "statement.md: never mentions warnings, but exercise.toml's "
        '[checks] warnings = "fail" fails a test whose call warns; say '
        "so in the statement"
    ]


def test_a_reference_that_warns_fails_where_warnings_fail(
    gate_copy: Path, sandbox: Sandbox
) -> None:
    edit(gate_copy / "exercise.toml", "[checks]\n", '[checks]\nwarnings = "fail"\n')
    edit(gate_copy / "solution.py", "    return", "    np.exp(np.float64(1000.0))\n    return")
    problems = validated(gate_copy, sandbox).problems
    assert problems[0].startswith(
        "solution.py: does not pass its own cases in the sandbox "
        "(failed): numerical example: warnings: the values are right"
    )


def test_no_hidden_case(tmp_path: Path, sandbox: Sandbox) -> None:
    folder = make_tiny_exercise(tmp_path)
    edit(folder / "cases.py", "@case(points=2)", "@case(public=True, points=2)")
    result = validated(folder, sandbox)
    assert result.problems == ["cases.py: has no hidden case; add cases without public=True"]


def test_solution_raising_is_reported_before_grading(tmp_path: Path, sandbox: Sandbox) -> None:
    folder = make_tiny_exercise(tmp_path)
    write(
        folder / "solution.py",
        """
        def count_above(x, threshold):
            raise NotImplementedError("later")
    """,
    )
    result = validated(folder, sandbox)
    assert result.problems == [
        "count-above/solution.py: raised NotImplementedError on case 'example': later"
    ]


def test_a_nan_input_is_deterministic(tmp_path: Path, sandbox: Sandbox) -> None:
    # Inputs may be Python numbers; float("nan") is the same input on every run.
    folder = make_tiny_exercise(tmp_path)
    with (folder / "cases.py").open("a", encoding="utf-8") as file:
        file.write(
            "\n\n@case\ndef nan_threshold(rng):\n"
            '    return {"x": rng.normal(size=4), "threshold": float("nan")}\n'
        )
    result = validated(folder, sandbox)
    assert result.problems == []


@pytest.mark.parametrize(
    "make", [make_softmax_loss, make_sgd_step, make_dropout], ids=lambda make: make.__name__
)
def test_folders_with_dicts_generators_and_reduced_outputs_pass(
    make: Callable[[Path], Path], tmp_path: Path, sandbox: Sandbox
) -> None:
    # Dict inputs are compared entry by entry, a generator by its state: the same on each run.
    result = validated(make(tmp_path), sandbox)
    assert result.problems == []
    assert "mutation score 100%" in result.notes[1]


def test_a_batch_axis_of_an_input_that_is_no_array_is_refused(
    tmp_path: Path, sandbox: Sandbox
) -> None:
    folder = make_sgd_step(tmp_path)
    edit(folder / "cases.py", "@case(points=2)", '@case(points=2, batch_axes={"params": 0})')
    result = validated(folder, sandbox)
    assert result.problems == [
        "sgd-step/cases.py: case 'wide layer': batch_axes names input(s) params, which are "
        "not arrays; only an array has a batch axis"
    ]


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


def test_a_scaffold_with_a_working_solution_still_needs_its_texts(
    tmp_path: Path, sandbox: Sandbox
) -> None:
    folder = create_exercise(tmp_path, "my-ex")
    write(
        folder / "solution.py",
        """
        import numpy as np


        def solve(x):
            return np.cumsum(x)
    """,
    )
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


def test_case_inputs_must_be_named_as_the_entrys_parameters(
    tmp_path: Path, sandbox: Sandbox
) -> None:
    folder = make_tiny_exercise(tmp_path)
    edit(folder / "cases.py", '"threshold"', '"limit"', count=0)
    result = validated(folder, sandbox)
    assert result.problems == [
        f"cases.py: case {name!r} gives (x, limit) but count_above(x, threshold) is called "
        "with them in that order; name and order the inputs as the entry function's parameters"
        for name in ("example", "random values")
    ]


def test_a_mistake_that_breaks_the_rules_is_named(gate_copy: Path, sandbox: Sandbox) -> None:
    # A learner who made this mistake would be told of the rules, never of the mistake.
    edit(gate_copy / "exercise.toml", "[limits]", '[rules]\nforbid = ["python-loop"]\n\n[limits]')
    write_mistake(
        gate_copy,
        "zz_looped",
        'HINT = "each row on its own"\n\n' + gate_solution() + "\n\n_reference = update_gate\n\n\n"
        "def update_gate(x_t, h_prev, W_z, b_z):\n"
        "    return _reference(x_t, h_prev, W_z, b_z) * sum(1 for _ in [0])\n",
    )
    result = validated(gate_copy, sandbox)
    line = (gate_copy / "mistakes" / "zz_looped.py").read_text().count("\n")
    assert result.problems == [
        f"mistakes/zz_looped.py: breaks the exercise's [rules]: line "
        f"{line}: a Python loop (generator expression)"
    ]


def test_a_mistake_caught_only_by_a_check_is_told_so(gate_copy: Path, sandbox: Sandbox) -> None:
    write_mistake(
        gate_copy,
        "zz_in_place",
        'HINT = "in place"\n\n'
        + wrapped_solution("""
        def update_gate(x_t, h_prev, W_z, b_z):
            z = _reference(x_t, h_prev, W_z, b_z)
            x_t *= 2
            return z
        """),
    )
    write_mistake(
        gate_copy,
        "zz_noisy",
        'HINT = "noisy"\n\n'
        + wrapped_solution("""
        def update_gate(x_t, h_prev, W_z, b_z):
            return _reference(x_t, h_prev, W_z, b_z) + np.random.default_rng().normal()
        """),
    )
    result = validated(gate_copy, sandbox)
    assert result.problems == [
        "mistakes/zz_in_place.py: its hint is not the diagnosis of its own output (its values "
        "equal the reference's on every case (and it passes every property case's checks) and "
        "it fails only on changed_input: a mistake can only be the diagnosis of wrong values or "
        "of failed checks, and the check's own message tells the learner; delete the file, or "
        "make it a mistake in the values)",
        "mistakes/zz_noisy.py: its hint is not the diagnosis of its own output (its output is "
        "not deterministic: two calls on case 'numerical example' return different outputs)",
    ]


def test_a_mistake_whose_failures_are_all_checks_on_right_values_is_told_so(
    gate_copy: Path, sandbox: Sandbox
) -> None:
    # float32 values are within the tolerance: only the dtype check fails, whose own hint is
    # the diagnosis; no other mistake or mutant fits it.
    write_mistake(
        gate_copy,
        "zz_single_precision",
        'HINT = "single precision"\n\n'
        + wrapped_solution("""
        def update_gate(x_t, h_prev, W_z, b_z):
            return _reference(x_t, h_prev, W_z, b_z).astype(np.float32)
        """),
    )
    problems = validated(gate_copy, sandbox).problems
    # (It takes float32_arithmetic.py's diagnosis away too: a problem of that file's own.)
    assert [p for p in problems if p.startswith("mistakes/zz_")] == [
        "mistakes/zz_single_precision.py: its hint is not the diagnosis of its own output (its "
        "failures are check-only: on every test it fails its values are right and it fails "
        "only on wrong_dtype: a mistake can only be the diagnosis of wrong values or of failed "
        "checks, and the check's own message tells the learner; delete the file, or make it a "
        "mistake in the values)"
    ]


def test_a_reference_that_warns_is_reported_where_warnings_are_noted(
    gate_copy: Path, sandbox: Sandbox
) -> None:
    edit(gate_copy / "solution.py", "    return", "    np.exp(np.float64(1000.0))\n    return")
    problems = validated(gate_copy, sandbox).problems
    assert len(problems) == 1
    assert problems[0].startswith(
        "solution.py: warns (numerical example: RuntimeWarning: overflow encountered in exp; "
        "batch of two: RuntimeWarning: overflow encountered in exp; "
    )
    assert problems[0].endswith(
        'with warnings = "note" learners are not told, but a reference that overflows is '
        "numerically weak: make it warning-free (a stable formula, or np.errstate around a "
        "harmless overflow)"
    )


def test_mutants_that_could_not_run_fail_validation(
    gate: PreparedExercise, sandbox: Sandbox
) -> None:
    result = ValidationResult(gate.exercise.path)
    why = "the mutants could not be run: they ran out of memory (MemoryError) within ..."
    check_mutants(replace(gate, mutants=(), mutant_failure=why), sandbox, result)
    assert result.problems == [
        f"cases.py: {why}; without them there is no mutation score and no mutant can be a diagnosis"
    ]
    assert result.notes == []


def test_samples_get_the_result_their_header_states(gate_copy: Path, sandbox: Sandbox) -> None:
    samples = gate_copy / "samples"
    edit(
        samples / "returns_candidate_share.py",
        "score=0 diagnosis=one_minus_z",
        "score=3 diagnosis=missing_bias",
    )
    write(
        samples / "weak_sigmoid.py",
        "# expect: verdict=passed score=26 diagnosis=none\n"
        + (GATE / "mistakes" / "overflowing_sigmoid.py").read_text(encoding="utf-8"),
    )
    write(samples / "no_header.py", gate_solution())
    result = validated(gate_copy, sandbox)
    assert result.problems[0] == (
        "gru-update-gate/samples/no_header.py: needs exactly one header line '# expect: "
        "verdict=... score=... diagnosis=...', found 0"
    )
    (samples / "no_header.py").unlink()
    result = validated(gate_copy, sandbox)
    assert len(result.problems) == 2
    assert result.problems[0].startswith(
        "samples/returns_candidate_share.py: expected verdict=failed score=3 "
        "diagnosis=missing_bias, got verdict=failed score=0 diagnosis=one_minus_z: numerical "
        "example: values: "
    )
    weak = result.problems[1]
    assert weak.startswith(
        "samples/weak_sigmoid.py: expected verdict=passed score=26 "
        "diagnosis=none, got verdict=failed score="
    )
    assert "diagnosis=overflowing_sigmoid: " in weak
    assert "not shown" not in weak  # the hidden tests' full messages
    assert result.notes[-1] == "3 sample(s)"


def test_a_sample_graded_differently_the_second_time_is_told_as_unsteady() -> None:
    # A sample that misses its header is graded again to show its messages in full; a speed
    # rule's ratio near its bound can land on the other side that time, and the messages
    # (a ratio above the bound) would contradict the result quoted before them.
    passed = Expectation(Verdict.PASSED, 9, None)
    slow = Expectation(Verdict.FAILED, 7, "slow")
    assert unsteady(passed, Expectation(Verdict.PASSED, 9.0, None)) == ""
    assert unsteady(passed, slow) == (
        ", then verdict=failed score=7 diagnosis=slow when graded again to show the messages "
        "below: the sample is near a speed rule's bound or a time limit, whose CPU time varies "
        "between gradings; keep it clearly on one side (a looser or tighter rule, a larger "
        "case, a slower or faster method)"
    )


FINITE_DIFFERENCES_CODE = """
import numpy as np


def update_gate(x_t, h_prev, W_z, b_z):
    return 1.0 / (1.0 + np.exp(-(np.concatenate([h_prev, x_t], axis=-1) @ W_z.T + b_z)))
"""


def test_a_gradient_exercise_needs_a_finite_difference_sample_that_fails(
    gate_copy: Path, sandbox: Sandbox
) -> None:
    # Declared a gradient exercise, gru-update-gate stands in for one: validate asks for the
    # sample, then refuses one expected to pass, whatever its grading gets.
    edit(gate_copy / "exercise.toml", "[checks]\n", "[checks]\ngradients = true\n")
    missing = validated(gate_copy, sandbox).problems
    assert missing == [
        "samples/finite_differences.py: missing; exercise.toml's [checks] gradients = true "
        "asks for a sample computing the gradients by central differences of the loss, "
        "expected to fail: add it, with a hidden case too large for it to finish within "
        "its limit",
        "exercise.toml: [checks] gradients = true asks for [rules] forbid = "
        '["complex-number"]: the complex step computes the gradients numerically, exact '
        "to rounding, and no tolerance tells it apart",
    ]
    write(
        gate_copy / "samples" / "finite_differences.py",
        "# expect: verdict=passed score=26 diagnosis=none\n" + FINITE_DIFFERENCES_CODE,
    )
    passing = validated(gate_copy, sandbox).problems
    assert passing[0] == (
        "samples/finite_differences.py: expects verdict=passed, but in a gradient exercise "
        "finite differences must not pass: add a hidden case too large for them to finish "
        "within its limit (a case's time_s), then expect verdict=timeout"
    )


def test_a_gradient_exercise_that_forbids_complex_numbers_is_not_asked_to(
    gate_copy: Path, sandbox: Sandbox
) -> None:
    edit(
        gate_copy / "exercise.toml",
        "[limits]",
        '[rules]\nforbid = ["complex-number"]\n[checks]\ngradients = true\n[limits]',
    )
    problems = validated(gate_copy, sandbox).problems
    assert problems and not any("complex" in problem for problem in problems)


def test_a_mistake_that_raises_on_every_case_is_told_so(gate_copy: Path, sandbox: Sandbox) -> None:
    write_mistake(
        gate_copy,
        "zz_transposed_product",
        'HINT = "transposed product"\n\n'
        + wrapped_solution("""
        def update_gate(x_t, h_prev, W_z, b_z):
            return np.dot(x_t, np.ones((x_t.shape[-1] + 1, 2)))  # never aligned
        """),
    )
    problems = validated(gate_copy, sandbox).problems
    assert [p for p in problems if p.startswith("mistakes/zz_")] == [
        "mistakes/zz_transposed_product.py: its hint is not the diagnosis of its own output (it "
        "raises on every case and returns on none, and code that raises everywhere gets no "
        "diagnosis (any slip with shapes would); delete the file, or make it a mistake that "
        "returns on some case)"
    ]
