"""graders/exercises/loading.py: reading and checking an exercise folder, and its version."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from graders.api import Exercise, ExerciseError, ExerciseNotFound, load_exercise
from graders.checks.outputs import BatchRule, DtypeRule, OutputSpec
from graders.checks.rules import Rule
from graders.exercises import Limits, WarningPolicy, folder_version
from tests.graders.helpers import EXERCISES, GATE, GATE_MISTAKES, edit, write


def load_error(path: Path) -> str:
    with pytest.raises(ExerciseError) as raised:
        load_exercise(path)
    return str(raised.value)


# --- a good folder ------------------------------------------------------------------------


def test_good_folder_loads(gate_exercise: Exercise) -> None:
    ex = gate_exercise
    assert (ex.id, ex.title, ex.difficulty, ex.entry, ex.order) == (
        "gru-update-gate",
        "GRU update gate",
        "easy",
        "update_gate",
        10,
    )
    assert ex.tags == ("gru", "gates", "sigmoid", "numerical-stability")
    assert ex.path == GATE.resolve()
    assert ex.limits == Limits(time_s=5, memory_mb=512)
    assert ex.source is not None and ex.source.startswith("Cho et al., 2014")
    assert ex.languages == ("en", "ja")
    assert ex.statements["en"] == (GATE / "statement.md").read_text(encoding="utf-8")
    assert ex.theories["ja"] == (GATE / "theory.ja.md").read_text(encoding="utf-8")
    assert ex.starter == (GATE / "starter.py").read_text(encoding="utf-8")
    assert [m.name for m in ex.mistakes] == GATE_MISTAKES
    one_minus_z = next(m for m in ex.mistakes if m.name == "one_minus_z")
    assert one_minus_z.hint.startswith("Your gate and the expected one add up to 1")
    assert len(ex.version) == 16
    assert all(c in "0123456789abcdef" for c in ex.version)
    assert ex.forbid == ()


# --- exercise.toml ------------------------------------------------------------------------


def test_missing_required_files_are_named(gate_copy: Path) -> None:
    (gate_copy / "starter.py").unlink()
    (gate_copy / "cases.py").unlink()
    assert load_error(gate_copy) == (
        "gru-update-gate: missing required file(s): starter.py, cases.py"
    )


def test_no_such_folder(tmp_path: Path) -> None:
    with pytest.raises(ExerciseNotFound) as raised:
        load_exercise(tmp_path / "nothing-here")
    assert str(raised.value) == f"{tmp_path / 'nothing-here'}: no such exercise folder"


def test_missing_entry_field(gate_copy: Path) -> None:
    edit(gate_copy / "exercise.toml", 'entry = "update_gate"\n', "")
    assert load_error(gate_copy) == (
        "gru-update-gate/exercise.toml: give either 'entry' (the function the learner writes) "
        "or 'entries' (the functions and classes the scenarios call), not both or neither"
    )


@pytest.mark.parametrize("value", ['""', '"   "', "3"])
def test_empty_or_non_string_title(gate_copy: Path, value: str) -> None:
    edit(gate_copy / "exercise.toml", 'title = "GRU update gate"', f"title = {value}")
    assert load_error(gate_copy) == (
        "gru-update-gate/exercise.toml: field 'title' is missing or not a non-empty string"
    )


def test_entry_must_be_a_function_name(gate_copy: Path) -> None:
    edit(gate_copy / "exercise.toml", 'entry = "update_gate"', 'entry = "update-gate"')
    assert load_error(gate_copy) == (
        "gru-update-gate/exercise.toml: field 'entry' must be a Python function name"
    )


def test_id_must_match_the_folder(gate_copy: Path) -> None:
    renamed = gate_copy.rename(gate_copy.parent / "gru-gate")
    assert load_error(renamed) == (
        "gru-gate/exercise.toml: field 'id' is 'gru-update-gate' but "
        "the folder is 'gru-gate'; they must match"
    )


def test_bad_difficulty(gate_copy: Path) -> None:
    edit(gate_copy / "exercise.toml", 'difficulty = "easy"', 'difficulty = "extreme"')
    assert load_error(gate_copy) == (
        "gru-update-gate/exercise.toml: field 'difficulty' must be "
        "one of easy, medium, hard, not 'extreme'"
    )


def test_invalid_toml(gate_copy: Path) -> None:
    edit(gate_copy / "exercise.toml", 'difficulty = "easy"', "difficulty = easy")
    assert load_error(gate_copy).startswith("gru-update-gate/exercise.toml: not valid TOML: ")


def test_tags_must_be_strings(gate_copy: Path) -> None:
    edit(gate_copy / "exercise.toml", 'tags = ["gru",', "tags = [1,")
    assert load_error(gate_copy) == (
        "gru-update-gate/exercise.toml: field 'tags' must be a list of strings"
    )


def test_order_must_be_an_integer(gate_copy: Path) -> None:
    edit(gate_copy / "exercise.toml", "order = 10", 'order = "10"')
    assert load_error(gate_copy) == (
        "gru-update-gate/exercise.toml: field 'order' must be an integer"
    )


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("time_s = 5", "time_s = 0", "field 'time_s' must be in (0, 60]"),
        ("time_s = 5", "time_s = 61", "field 'time_s' must be in (0, 60]"),
        ("memory_mb = 512", "memory_mb = 64", "field 'memory_mb' must be in [128, 8192]"),
        ("memory_mb = 512", "memory_mb = 9000", "field 'memory_mb' must be in [128, 8192]"),
        ("memory_mb = 512", "memory_mb = 512\ncpus = 2\ndisk = 1", "unknown field(s) cpus, disk"),
    ],
)
def test_bad_limits(gate_copy: Path, old: str, new: str, message: str) -> None:
    edit(gate_copy / "exercise.toml", old, new)
    assert load_error(gate_copy) == f"gru-update-gate/exercise.toml [limits]: {message}"


def test_limits_must_be_a_table(gate_copy: Path) -> None:
    toml = gate_copy / "exercise.toml"
    text = toml.read_text(encoding="utf-8").split("[limits]")[0]
    toml.write_text(text.replace("order = 10", "order = 10\nlimits = 5"), encoding="utf-8")
    assert load_error(gate_copy) == "gru-update-gate/exercise.toml [limits]: must be a table"


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ("time_s = 5", 'time_s = "5"', "time_s"),
        ("memory_mb = 512", 'memory_mb = "lots"', "memory_mb"),
    ],
)
def test_limits_of_the_wrong_type_are_an_exercise_error(
    gate_copy: Path, old: str, new: str, field: str
) -> None:
    # A string limit must be reported like any other bad limit, not crash with a TypeError.
    edit(gate_copy / "exercise.toml", old, new)
    message = load_error(gate_copy)
    assert message.startswith("gru-update-gate/exercise.toml [limits]: ")
    assert f"'{field}'" in message


def test_limits_default_when_the_table_is_absent(gate_copy: Path) -> None:
    toml = gate_copy / "exercise.toml"
    toml.write_text(toml.read_text(encoding="utf-8").split("[limits]")[0], encoding="utf-8")
    assert load_exercise(gate_copy).limits == Limits(time_s=5.0, memory_mb=512)


def checks_table(folder: Path, table: str) -> None:
    """The gate's own ``[checks]`` table (it declares ``unbatched``) replaced by ``table``."""
    toml = folder / "exercise.toml"
    text = toml.read_text()
    replaced = re.sub(r"\[checks\]\n.*?(?=\[limits\])", lambda _: table, text, flags=re.DOTALL)
    assert replaced != text or not table
    toml.write_text(replaced)


@pytest.mark.parametrize(
    ("table", "unbatched"),
    [("", False), ("[checks]\nunbatched = true\n", True), ("[checks]\nunbatched = false\n", False)],
)
def test_the_unbatched_contract_is_read_from_the_checks_table(
    gate_copy: Path, table: str, unbatched: bool
) -> None:
    assert load_exercise(gate_copy).unbatched
    checks_table(gate_copy, table)
    assert load_exercise(gate_copy).unbatched is unbatched


def test_unbatched_must_be_true_or_false(gate_copy: Path) -> None:
    checks_table(gate_copy, "[checks]\nunbatched = 1\n")
    assert load_error(gate_copy) == (
        "gru-update-gate/exercise.toml [checks]: field 'unbatched' must be true or false, not 1"
    )


@pytest.mark.parametrize(
    ("table", "policy"),
    [
        ("", WarningPolicy.NOTE),
        ('[checks]\nwarnings = "note"\n', WarningPolicy.NOTE),
        ('[checks]\nwarnings = "fail"\n', WarningPolicy.FAIL),
    ],
)
def test_warning_policy_is_read_from_the_checks_table(
    gate_copy: Path, table: str, policy: WarningPolicy
) -> None:
    checks_table(gate_copy, table)
    assert load_exercise(gate_copy).warnings is policy


@pytest.mark.parametrize(
    ("table", "message"),
    [
        (
            '[checks]\nwarnings = "error"\n',
            "field 'warnings' must be one of note, fail, not 'error'",
        ),
        ("[checks]\nwarnings = true\n", "field 'warnings' must be one of note, fail, not True"),
        ('[checks]\nwarnings = "fail"\nstrict = 1\n', "unknown field(s) strict"),
    ],
)
def test_bad_warning_policy(gate_copy: Path, table: str, message: str) -> None:
    checks_table(gate_copy, table)
    assert load_error(gate_copy) == f"gru-update-gate/exercise.toml [checks]: {message}"


@pytest.mark.parametrize(
    ("table", "gradients"), [("", False), ("[checks]\ngradients = true\n", True)]
)
def test_a_gradient_exercise_is_declared_in_the_checks_table(
    gate_copy: Path, table: str, gradients: bool
) -> None:
    checks_table(gate_copy, table)
    assert load_exercise(gate_copy).gradients is gradients


def test_the_bundled_gradient_exercise_declares_itself() -> None:
    assert load_exercise(EXERCISES / "gated-unit-bptt").gradients
    assert not load_exercise(GATE).gradients


def test_gradients_must_be_true_or_false(gate_copy: Path) -> None:
    checks_table(gate_copy, '[checks]\ngradients = "yes"\n')
    assert load_error(gate_copy) == (
        "gru-update-gate/exercise.toml [checks]: field 'gradients' must be true or false"
    )


@pytest.mark.parametrize(
    ("table", "on"),
    [
        ("", True),
        ("[checks]\ncustom_inputs = true\n", True),
        ('[checks]\nwarnings = "fail"\ncustom_inputs = false\n', False),
    ],
)
def test_custom_inputs_are_read_from_the_checks_table(
    gate_copy: Path, table: str, on: bool
) -> None:
    checks_table(gate_copy, table)
    exercise = load_exercise(gate_copy)
    assert exercise.custom_inputs is on
    assert exercise.takes_custom_inputs is on


def test_custom_inputs_must_be_true_or_false(gate_copy: Path) -> None:
    checks_table(gate_copy, '[checks]\ncustom_inputs = "no"\n')
    assert load_error(gate_copy) == (
        "gru-update-gate/exercise.toml [checks]: field 'custom_inputs' must be true or false, "
        "not 'no'"
    )


def test_a_scenario_exercise_takes_no_custom_inputs() -> None:
    scenario = load_exercise(EXERCISES / "affine-layer")
    assert scenario.custom_inputs and not scenario.takes_custom_inputs
    assert not load_exercise(EXERCISES / "parameter-count").takes_custom_inputs


def test_checks_must_be_a_table(gate_copy: Path) -> None:
    checks_table(gate_copy, "")
    edit(gate_copy / "exercise.toml", "order = 10", 'order = 10\nchecks = "fail"')
    assert load_error(gate_copy) == "gru-update-gate/exercise.toml [checks]: must be a table"


def with_rules(folder: Path, table: str) -> Path:
    edit(folder / "exercise.toml", "[limits]", f"[rules]\n{table}\n\n[limits]")
    return folder


def test_the_candidate_states_rules_are_read_in_order() -> None:
    assert load_exercise(EXERCISES / "gru-candidate-state").forbid == tuple(
        Rule.parse(text) for text in ("python-loop", "numpy.vectorize", "numpy.apply_along_axis")
    )


def test_an_empty_rules_table_forbids_nothing(gate_copy: Path) -> None:
    assert load_exercise(with_rules(gate_copy, "")).forbid == ()


@pytest.mark.parametrize(
    ("forbid", "message"),
    [
        (
            'forbid = ["loops"]',
            "'loops' is not a rule: use one of python-loop, complex-number, "
            "'import:<module>' or a dotted name such as 'numpy.linalg.inv'",
        ),
        ('forbid = "python-loop"', "field 'forbid' must be a list of strings"),
        ("forbid = [1]", "field 'forbid' must be a list of strings"),
        ('forbid = ["python-loop", "python-loop"]', "field 'forbid' names a rule twice"),
        ('forbid = []\nallow = ["numpy"]', "unknown field(s) allow"),
    ],
)
def test_bad_rules(gate_copy: Path, forbid: str, message: str) -> None:
    with_rules(gate_copy, forbid)
    assert load_error(gate_copy) == f"gru-update-gate/exercise.toml [rules]: {message}"


def test_rules_must_be_a_table(gate_copy: Path) -> None:
    edit(gate_copy / "exercise.toml", "order = 10", 'order = 10\nrules = "none"')
    assert load_error(gate_copy) == "gru-update-gate/exercise.toml [rules]: must be a table"


def with_outputs(folder: Path, tables: str) -> Path:
    """``tables`` appended after the last table of exercise.toml ([limits])."""
    with (folder / "exercise.toml").open("a", encoding="utf-8") as file:
        file.write("\n" + tables + "\n")
    return folder


def test_outputs_are_read_in_order_with_their_rules(gate_copy: Path) -> None:
    exercise = load_exercise(
        with_outputs(
            gate_copy,
            '[[outputs]]\nname = "loss"\nbatch = "mean"\nrtol = 1e-5\n\n'
            '[[outputs]]\nname = "dlogits"\nbatch = "stack/n"\natol = 0\ndtype = "kind"\n',
        )
    )
    assert exercise.outputs == (
        OutputSpec("loss", BatchRule.MEAN, rtol=1e-5),
        OutputSpec("dlogits", BatchRule.STACK_OVER_N, atol=0.0, dtype=DtypeRule.KIND),
    )


def test_no_outputs_declared(gate_exercise: Exercise) -> None:
    assert gate_exercise.outputs == ()


@pytest.mark.parametrize(
    ("tables", "message"),
    [
        ('outputs = "dw"', "[[outputs]]: must be an array of tables, one per output"),
        (
            '[[outputs]]\nbatch = "sum"',
            "[[outputs]] #1: field 'name' must be a Python name, such as \"dw\"",
        ),
        (
            '[[outputs]]\nname = "d w"',
            "[[outputs]] #1: field 'name' must be a Python name, such as \"dw\"",
        ),
        (
            '[[outputs]]\nname = "dw"\nbatch = "max"',
            "[[outputs]] #1: field 'batch' must be one of stack, stack/n, mean, sum, shared, "
            "not 'max'",
        ),
        (
            '[[outputs]]\nname = "dw"\ndtype = "float64"',
            "[[outputs]] #1: field 'dtype' must be one of exact, kind, not 'float64'",
        ),
        (
            '[[outputs]]\nname = "dw"\nrtol = -1',
            "[[outputs]] #1: field 'rtol' must be a number >= 0",
        ),
        (
            '[[outputs]]\nname = "dw"\natol = "0"',
            "[[outputs]] #1: field 'atol' must be a number >= 0",
        ),
        (
            '[[outputs]]\nname = "dw"\natol = nan',
            "[[outputs]] #1: field 'atol' must be a number >= 0",
        ),
        ('[[outputs]]\nname = "dw"\nshape = [2]', "[[outputs]] #1: unknown field(s) shape"),
        (
            '[[outputs]]\nname = "dw"\n\n[[outputs]]\nname = "dw"',
            "[[outputs]]: two outputs have the same name",
        ),
    ],
)
def test_bad_outputs(gate_copy: Path, tables: str, message: str) -> None:
    if tables.startswith("outputs"):  # a key, not a table: it must come before [limits]
        edit(gate_copy / "exercise.toml", "order = 10", f"order = 10\n{tables}")
    else:
        with_outputs(gate_copy, tables)
    assert load_error(gate_copy) == f"gru-update-gate/exercise.toml {message}"


def test_optional_fields_default(gate_copy: Path) -> None:
    for line in ("order = 10\n", 'tags = ["gru", "gates", "sigmoid", "numerical-stability"]\n'):
        edit(gate_copy / "exercise.toml", line, "")
    toml = gate_copy / "exercise.toml"
    toml.write_text(
        "\n".join(line for line in toml.read_text().splitlines() if not line.startswith("source"))
        + "\n"
    )
    exercise = load_exercise(gate_copy)
    assert (exercise.order, exercise.tags, exercise.source) == (1000, (), None)


# --- mistakes -----------------------------------------------------------------------------


def test_mistake_without_hint(gate_copy: Path) -> None:
    write(
        gate_copy / "mistakes" / "no_hint.py",
        """
        def update_gate(x_t, h_prev, W_z, b_z):
            return h_prev
    """,
    )
    assert load_error(gate_copy) == (
        "gru-update-gate/mistakes/no_hint.py: field 'HINT' is "
        'missing; set HINT = "what the learner should reconsider"'
    )


def test_mistake_with_blank_hint(gate_copy: Path) -> None:
    edit(gate_copy / "mistakes" / "one_minus_z.py", 'HINT = ("Your gate', 'HINT = "  "\n_ = ("')
    assert load_error(gate_copy).startswith(
        "gru-update-gate/mistakes/one_minus_z.py: field 'HINT' is missing"
    )


def test_a_mistake_hint_is_read_without_running_the_file(tmp_path: Path) -> None:
    folder = tmp_path / "gru-update-gate"
    shutil.copytree(EXERCISES / "gru-update-gate", folder)
    (folder / "mistakes" / "loud.py").write_text(
        'raise SystemExit("ran at load time")\nHINT = "A hint."\n'
    )
    exercise = load_exercise(folder)
    assert [m.hint for m in exercise.mistakes if m.name == "loud"] == ["A hint."]


def test_a_hint_that_is_not_a_literal_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "gru-update-gate"
    shutil.copytree(EXERCISES / "gru-update-gate", folder)
    (folder / "mistakes" / "computed.py").write_text('HINT = "a" + str(1)\n')
    with pytest.raises(ExerciseError, match=r"mistakes/computed.py: HINT must be a plain string"):
        load_exercise(folder)


# --- versions -----------------------------------------------------------------------------


def test_version_changes_when_an_exercise_file_changes(gate_copy: Path) -> None:
    before = folder_version(gate_copy)
    assert load_exercise(gate_copy).version == before
    edit(gate_copy / "statement.md", "# GRU update gate", "# The GRU update gate")
    after_statement = folder_version(gate_copy)
    edit(gate_copy / "mistakes" / "one_minus_z.py", "return 1.0 - z", "return 1 - z")
    after_mistake = folder_version(gate_copy)
    assert len({before, after_statement, after_mistake}) == 3


def test_version_changes_when_a_file_is_added_or_renamed(gate_copy: Path) -> None:
    before = folder_version(gate_copy)
    (gate_copy / "mistakes" / "one_minus_z.py").rename(gate_copy / "mistakes" / "inverted.py")
    renamed = folder_version(gate_copy)
    write(gate_copy / "theory.fr.md", "# Porte de mise à jour\n")
    added = folder_version(gate_copy)
    assert len({before, renamed, added}) == 3


def test_version_ignores_caches_and_editor_files(gate_copy: Path) -> None:
    before = folder_version(gate_copy)
    for cache in (gate_copy / "__pycache__", gate_copy / "mistakes" / "__pycache__"):
        cache.mkdir()
        (cache / "cases.cpython-311.pyc").write_bytes(b"\x00compiled")
        (cache / "stray.py").write_text("x = 1\n")
    (gate_copy / ".solution.py.swp").write_bytes(b"swap")
    (gate_copy / "notes.txt").write_text("todo\n")
    assert folder_version(gate_copy) == before


def test_version_does_not_depend_on_the_folder_location(gate_copy: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere" / "gru-update-gate"
    shutil.copytree(gate_copy, elsewhere)
    assert folder_version(elsewhere) == folder_version(gate_copy) == folder_version(GATE)


def test_a_folder_is_parsed_again_only_when_its_files_change(gate_copy: Path) -> None:
    first = load_exercise(gate_copy)
    assert load_exercise(gate_copy) is first
    hint = "Your gate and the expected one add up to 1"
    edit(gate_copy / "mistakes" / "one_minus_z.py", hint, "The gates add up to 1")
    edited = load_exercise(gate_copy)
    assert edited.version != first.version
    one_minus_z = next(m for m in edited.mistakes if m.name == "one_minus_z")
    assert one_minus_z.hint.startswith("The gates add up to 1")
    edit(gate_copy / "mistakes" / "one_minus_z.py", "The gates add up to 1", hint)
    assert load_exercise(gate_copy) is first
    # the same files in another folder are another exercise: its path is its own
    elsewhere = gate_copy.parent / "copy" / "gru-update-gate"
    shutil.copytree(gate_copy, elsewhere)
    assert load_exercise(elsewhere).path == elsewhere.resolve()


def test_a_folder_that_fails_to_load_is_read_again_once_fixed(gate_copy: Path) -> None:
    edit(gate_copy / "exercise.toml", 'difficulty = "easy"', 'difficulty = "trivial"')
    assert "difficulty" in load_error(gate_copy)
    assert "difficulty" in load_error(gate_copy)
    edit(gate_copy / "exercise.toml", 'difficulty = "trivial"', 'difficulty = "easy"')
    assert load_exercise(gate_copy).difficulty == "easy"
