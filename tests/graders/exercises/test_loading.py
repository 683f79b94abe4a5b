"""graders/exercises.py: loading, checking and preparing exercise folders; the catalog."""

from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import graders.exercises.catalog
from graders import (
    Exercise,
    ExerciseCatalog,
    ExerciseError,
    ExerciseNotFound,
    PreparedExercise,
    load_exercise,
    prepare_exercise,
)
from graders.exercises import Limits, WarningPolicy, folder_version
from tests.graders.helpers import (
    EXERCISES,
    GATE,
    GATE_BATCHED,
    GATE_HIDDEN,
    GATE_MISTAKES,
    GATE_PUBLIC,
    edit,
    write,
)


def load_error(path: Path) -> str:
    with pytest.raises(ExerciseError) as raised:
        load_exercise(path)
    return str(raised.value)


def prepare_error(path: Path) -> str:
    exercise = load_exercise(path)
    with pytest.raises(ExerciseError) as raised:
        prepare_exercise(exercise)
    return str(raised.value)


# --- a good folder ------------------------------------------------------------------------

def test_good_folder_loads(gate_exercise: Exercise) -> None:
    ex = gate_exercise
    assert (ex.id, ex.title, ex.difficulty, ex.entry, ex.order) == (
        "gru-update-gate", "GRU update gate", "easy", "update_gate", 10)
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


def test_good_folder_prepares(gate: PreparedExercise) -> None:
    assert [c.name for c in gate.cases] == GATE_PUBLIC + GATE_HIDDEN
    assert [c.name for c in gate.public_cases] == GATE_PUBLIC
    assert [c.name for c in gate.cases if c.spec.batched] == GATE_BATCHED
    assert [c.spec.points for c in gate.cases] == [1, 1, 2, 2, 3, 2, 2, 2, 3, 3, 2, 2, 1]
    example = gate.cases[0]
    assert list(example.inputs) == ["h_prev", "x_t", "W_z", "b_z"]
    np.testing.assert_allclose(example.expected, [0.7150421057, 0.4950001667, 0.4378234991],
                               rtol=1e-9)
    assert set(GATE_MISTAKES) <= set(example.outputs)
    assert set(GATE_MISTAKES) <= set(gate.candidates)
    np.testing.assert_allclose(example.outputs["one_minus_z"], 1 - example.expected)
    # Every mistake is wrong on the worked example but the overflow and the clipped
    # pre-activation are not (its pre-activations are small).
    assert set(GATE_MISTAKES) & example.table.wrong == set(GATE_MISTAKES) - {
        "clipped_preactivation", "overflowing_sigmoid"}
    assert example.slice_inputs == ()
    batch_of_two = gate.cases[1]
    assert len(batch_of_two.slice_inputs) == 2
    np.testing.assert_array_equal(batch_of_two.slice_inputs[0]["h_prev"], [0.8, -0.3, 0.5])
    np.testing.assert_array_equal(batch_of_two.slice_inputs[1]["x_t"], [2.0, 1.0])
    assert batch_of_two.slice_inputs[1]["W_z"] is batch_of_two.inputs["W_z"]


def test_preparing_twice_gives_identical_inputs_and_outputs(gate_exercise: Exercise) -> None:
    first, second = prepare_exercise(gate_exercise), prepare_exercise(gate_exercise)
    for a, b in zip(first.cases, second.cases, strict=True):
        for name in a.inputs:
            np.testing.assert_array_equal(a.inputs[name], b.inputs[name])
        np.testing.assert_array_equal(a.expected, b.expected)


# --- exercise.toml ------------------------------------------------------------------------

def test_missing_required_files_are_named(gate_copy: Path) -> None:
    (gate_copy / "starter.py").unlink()
    (gate_copy / "cases.py").unlink()
    assert load_error(gate_copy) == ("gru-update-gate: missing required file(s): starter.py, "
                                     "cases.py")


def test_no_such_folder(tmp_path: Path) -> None:
    with pytest.raises(ExerciseNotFound) as raised:
        load_exercise(tmp_path / "nothing-here")
    assert str(raised.value) == f"{tmp_path / 'nothing-here'}: no such exercise folder"


def test_missing_entry_field(gate_copy: Path) -> None:
    edit(gate_copy / "exercise.toml", 'entry = "update_gate"\n', "")
    assert load_error(gate_copy) == ("gru-update-gate/exercise.toml: field 'entry' is missing or "
                                     "not a non-empty string")


@pytest.mark.parametrize("value", ['""', '"   "', "3"])
def test_empty_or_non_string_title(gate_copy: Path, value: str) -> None:
    edit(gate_copy / "exercise.toml", 'title = "GRU update gate"', f"title = {value}")
    assert load_error(gate_copy) == ("gru-update-gate/exercise.toml: field 'title' is missing or "
                                     "not a non-empty string")


def test_entry_must_be_a_function_name(gate_copy: Path) -> None:
    edit(gate_copy / "exercise.toml", 'entry = "update_gate"', 'entry = "update-gate"')
    assert load_error(gate_copy) == ("gru-update-gate/exercise.toml: field 'entry' must be a "
                                     "Python function name")


def test_id_must_match_the_folder(gate_copy: Path) -> None:
    renamed = gate_copy.rename(gate_copy.parent / "gru-gate")
    assert load_error(renamed) == ("gru-gate/exercise.toml: field 'id' is 'gru-update-gate' but "
                                   "the folder is 'gru-gate'; they must match")


def test_bad_difficulty(gate_copy: Path) -> None:
    edit(gate_copy / "exercise.toml", 'difficulty = "easy"', 'difficulty = "extreme"')
    assert load_error(gate_copy) == ("gru-update-gate/exercise.toml: field 'difficulty' must be "
                                     "one of easy, medium, hard, not 'extreme'")


def test_invalid_toml(gate_copy: Path) -> None:
    edit(gate_copy / "exercise.toml", 'difficulty = "easy"', "difficulty = easy")
    assert load_error(gate_copy).startswith("gru-update-gate/exercise.toml: not valid TOML: ")


def test_tags_must_be_strings(gate_copy: Path) -> None:
    edit(gate_copy / "exercise.toml", 'tags = ["gru",', "tags = [1,")
    assert load_error(gate_copy) == ("gru-update-gate/exercise.toml: field 'tags' must be a "
                                     "list of strings")


def test_order_must_be_an_integer(gate_copy: Path) -> None:
    edit(gate_copy / "exercise.toml", "order = 10", 'order = "10"')
    assert load_error(gate_copy) == ("gru-update-gate/exercise.toml: field 'order' must be an "
                                     "integer")


@pytest.mark.parametrize(("old", "new", "message"), [
    ("time_s = 5", "time_s = 0", "field 'time_s' must be in (0, 60]"),
    ("time_s = 5", "time_s = 61", "field 'time_s' must be in (0, 60]"),
    ("memory_mb = 512", "memory_mb = 64", "field 'memory_mb' must be in [128, 8192]"),
    ("memory_mb = 512", "memory_mb = 9000", "field 'memory_mb' must be in [128, 8192]"),
    ("memory_mb = 512", "memory_mb = 512\ncpus = 2\ndisk = 1",
     "unknown field(s) cpus, disk"),
])
def test_bad_limits(gate_copy: Path, old: str, new: str, message: str) -> None:
    edit(gate_copy / "exercise.toml", old, new)
    assert load_error(gate_copy) == f"gru-update-gate/exercise.toml [limits]: {message}"


def test_limits_must_be_a_table(gate_copy: Path) -> None:
    toml = gate_copy / "exercise.toml"
    text = toml.read_text(encoding="utf-8").split("[limits]")[0]
    toml.write_text(text.replace("order = 10", "order = 10\nlimits = 5"), encoding="utf-8")
    assert load_error(gate_copy) == "gru-update-gate/exercise.toml [limits]: must be a table"


@pytest.mark.parametrize(("old", "new", "field"), [
    ("time_s = 5", 'time_s = "5"', "time_s"),
    ("memory_mb = 512", 'memory_mb = "lots"', "memory_mb"),
])
def test_limits_of_the_wrong_type_are_an_exercise_error(gate_copy: Path, old: str, new: str,
                                                        field: str) -> None:
    # A string limit must be reported like any other bad limit, not crash with a TypeError.
    edit(gate_copy / "exercise.toml", old, new)
    message = load_error(gate_copy)
    assert message.startswith("gru-update-gate/exercise.toml [limits]: ")
    assert f"'{field}'" in message


def test_limits_default_when_the_table_is_absent(gate_copy: Path) -> None:
    toml = gate_copy / "exercise.toml"
    toml.write_text(toml.read_text(encoding="utf-8").split("[limits]")[0], encoding="utf-8")
    assert load_exercise(gate_copy).limits == Limits(time_s=5.0, memory_mb=512)


@pytest.mark.parametrize(("table", "policy"), [
    ("", WarningPolicy.NOTE),
    ('[checks]\nwarnings = "note"\n', WarningPolicy.NOTE),
    ('[checks]\nwarnings = "fail"\n', WarningPolicy.FAIL),
])
def test_warning_policy_is_read_from_the_checks_table(gate_copy: Path, table: str,
                                                      policy: WarningPolicy) -> None:
    edit(gate_copy / "exercise.toml", "[limits]", table + "[limits]")
    assert load_exercise(gate_copy).warnings is policy


@pytest.mark.parametrize(("table", "message"), [
    ('[checks]\nwarnings = "error"\n',
     "field 'warnings' must be one of note, fail, not 'error'"),
    ("[checks]\nwarnings = true\n", "field 'warnings' must be one of note, fail, not True"),
    ('[checks]\nwarnings = "fail"\nstrict = 1\n', "unknown field(s) strict"),
])
def test_bad_warning_policy(gate_copy: Path, table: str, message: str) -> None:
    edit(gate_copy / "exercise.toml", "[limits]", table + "[limits]")
    assert load_error(gate_copy) == f"gru-update-gate/exercise.toml [checks]: {message}"


def test_checks_must_be_a_table(gate_copy: Path) -> None:
    edit(gate_copy / "exercise.toml", "order = 10", 'order = 10\nchecks = "fail"')
    assert load_error(gate_copy) == "gru-update-gate/exercise.toml [checks]: must be a table"


def test_optional_fields_default(gate_copy: Path) -> None:
    for line in ("order = 10\n", 'tags = ["gru", "gates", "sigmoid", "numerical-stability"]\n'):
        edit(gate_copy / "exercise.toml", line, "")
    toml = gate_copy / "exercise.toml"
    toml.write_text("\n".join(line for line in toml.read_text().splitlines()
                              if not line.startswith("source")) + "\n")
    exercise = load_exercise(gate_copy)
    assert (exercise.order, exercise.tags, exercise.source) == (1000, (), None)


# --- mistakes -----------------------------------------------------------------------------

def test_mistake_without_hint(gate_copy: Path) -> None:
    write(gate_copy / "mistakes" / "no_hint.py", """
        def update_gate(h_prev, x_t, W_z, b_z):
            return h_prev
    """)
    assert load_error(gate_copy) == ("gru-update-gate/mistakes/no_hint.py: field 'HINT' is "
                                     "missing; set HINT = \"what the learner should reconsider\"")


def test_mistake_with_blank_hint(gate_copy: Path) -> None:
    edit(gate_copy / "mistakes" / "one_minus_z.py", 'HINT = ("Your gate', 'HINT = "  "\n_ = ("')
    assert load_error(gate_copy).startswith(
        "gru-update-gate/mistakes/one_minus_z.py: field 'HINT' is missing")


def test_mistake_that_raises_on_import(gate_copy: Path) -> None:
    # Loading only reads the HINT; the mistake runs, and fails, when the exercise is prepared.
    write(gate_copy / "mistakes" / "broken.py", """
        HINT = "x"
        raise ImportError("no such module")
    """)
    assert prepare_error(gate_copy) == ("gru-update-gate/mistakes/broken.py: raised ImportError: "
                                        "no such module")


def test_mistake_not_defining_the_entry(gate_copy: Path) -> None:
    write(gate_copy / "mistakes" / "renamed.py", """
        HINT = "x"
        def gate(h_prev, x_t, W_z, b_z):
            return h_prev
    """)
    assert prepare_error(gate_copy) == ("gru-update-gate/mistakes/renamed.py: does not define "
                                        "the entry function 'update_gate' named in exercise.toml")


# --- cases.py and solution.py -------------------------------------------------------------

def test_cases_module_that_raises(gate_copy: Path) -> None:
    edit(gate_copy / "cases.py", "BATCH = {", 'raise RuntimeError("unfinished")\nBATCH = {')
    assert prepare_error(gate_copy) == ("gru-update-gate/cases.py: raised RuntimeError: "
                                        "unfinished")


def test_case_that_raises_names_cases_py_and_the_case(gate_copy: Path) -> None:
    edit(gate_copy / "cases.py", "    return random_inputs(rng, H=4, D=6, N=8)",
         '    raise ValueError("no batch today")')
    assert prepare_error(gate_copy) == ("gru-update-gate/cases.py: case 'batched' raised "
                                        "ValueError: no batch today")


def test_solution_not_defining_the_entry(gate_copy: Path) -> None:
    edit(gate_copy / "solution.py", "def update_gate(", "def the_gate(")
    assert prepare_error(gate_copy) == ("gru-update-gate/solution.py: does not define the entry "
                                        "function 'update_gate' named in exercise.toml")


def test_solution_that_raises_on_a_case(gate_copy: Path) -> None:
    edit(gate_copy / "solution.py", "    joined = np.concatenate",
         "    if h_prev.shape == (1,):\n        raise ArithmeticError('one unit')\n"
         "    joined = np.concatenate")
    assert prepare_error(gate_copy) == ("gru-update-gate/solution.py: raised ArithmeticError on "
                                        "case 'single hidden unit': one unit")


def test_no_public_case(gate_copy: Path) -> None:
    edit(gate_copy / "cases.py", "public=True", "public=False", count=0)
    assert prepare_error(gate_copy) == ("gru-update-gate/cases.py: needs at least one public "
                                        "case (public=True)")


def test_no_cases(gate_copy: Path) -> None:
    write(gate_copy / "cases.py", "import numpy as np\n")
    assert prepare_error(gate_copy) == ("gru-update-gate/cases.py: declares no cases; decorate "
                                        "input makers with @case")


def test_duplicate_case_names(gate_copy: Path) -> None:
    with (gate_copy / "cases.py").open("a", encoding="utf-8") as file:
        file.write('\n\n@case(name="batched")\ndef again(rng):\n'
                   '    return random_inputs(rng, H=2, D=2)\n')
    assert prepare_error(gate_copy) == "gru-update-gate/cases.py: case names must be unique"


def test_batch_axes_naming_an_unknown_input(gate_copy: Path) -> None:
    edit(gate_copy / "cases.py", 'BATCH = {"h_prev": 0, "x_t": 0}',
         'BATCH = {"h_prev": 0, "x": 0}')
    assert prepare_error(gate_copy) == ("gru-update-gate/cases.py: case 'batch of two': "
                                        "batch_axes names unknown input(s) x")


def test_batched_inputs_disagreeing_on_the_batch_size(gate_copy: Path) -> None:
    edit(gate_copy / "cases.py", "    return random_inputs(rng, H=4, D=6, N=8)",
         "    inputs = random_inputs(rng, H=4, D=6, N=8)\n"
         "    inputs['x_t'] = inputs['x_t'][:7]\n    return inputs")
    # The reference cannot concatenate 8 states with 7 inputs: the author learns which case.
    message = prepare_error(gate_copy)
    assert message.startswith("gru-update-gate/solution.py: raised ValueError on case 'batched'")


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


def test_version_does_not_depend_on_the_folder_location(gate_copy: Path, tmp_path: Path
                                                        ) -> None:
    elsewhere = tmp_path / "elsewhere" / "gru-update-gate"
    shutil.copytree(gate_copy, elsewhere)
    assert folder_version(elsewhere) == folder_version(gate_copy) == folder_version(GATE)


# --- the catalog --------------------------------------------------------------------------

def make_catalog_entry(root: Path, exercise_id: str, order: int | None) -> Path:
    folder = root / exercise_id
    shutil.copytree(GATE, folder, ignore=shutil.ignore_patterns("__pycache__"))
    edit(folder / "exercise.toml", 'id = "gru-update-gate"', f'id = "{exercise_id}"')
    if order is None:
        edit(folder / "exercise.toml", "order = 10\n", "")
    else:
        edit(folder / "exercise.toml", "order = 10", f"order = {order}")
    return folder


def test_catalog_lists_and_orders_by_order_then_id(tmp_path: Path) -> None:
    make_catalog_entry(tmp_path, "a-last", None)
    make_catalog_entry(tmp_path, "b-second", 20)
    make_catalog_entry(tmp_path, "c-first", 5)
    make_catalog_entry(tmp_path, "a-second", 20)
    (tmp_path / "not-an-exercise").mkdir()
    (tmp_path / "README.md").write_text("catalog\n")
    catalog = ExerciseCatalog(tmp_path)
    assert catalog.ids() == ["a-last", "a-second", "b-second", "c-first"]
    assert [e.id for e in catalog.all()] == ["c-first", "a-second", "b-second", "a-last"]


def test_catalog_of_a_missing_directory_is_empty(tmp_path: Path) -> None:
    catalog = ExerciseCatalog(tmp_path / "missing")
    assert (catalog.ids(), catalog.all()) == ([], [])


@pytest.mark.parametrize("exercise_id", ["", "missing", "../gru-update-gate", ".hidden",
                                         "a/b"])
def test_catalog_refuses_unknown_ids(tmp_path: Path, exercise_id: str) -> None:
    make_catalog_entry(tmp_path / "catalog", "gru-update-gate", 10)
    (tmp_path / ".hidden").mkdir()
    with pytest.raises(ExerciseNotFound) as raised:
        ExerciseCatalog(tmp_path / "catalog").load(exercise_id)
    assert str(raised.value) == f"Exercise {exercise_id!r} not found"


def test_catalog_all_skips_a_broken_folder(tmp_path: Path) -> None:
    # all() promises "every loadable exercise": one broken folder must not hide the others.
    make_catalog_entry(tmp_path, "good-one", 1)
    broken = make_catalog_entry(tmp_path, "broken-one", 2)
    edit(broken / "exercise.toml", 'difficulty = "easy"', 'difficulty = "extreme"')
    assert [e.id for e in ExerciseCatalog(tmp_path).all()] == ["good-one"]


def test_catalog_prepares_once_per_version_and_rereads_an_edited_folder(tmp_path: Path) -> None:
    folder = make_catalog_entry(tmp_path, "gru-update-gate", 10)
    catalog = ExerciseCatalog(tmp_path)
    first = catalog.prepared("gru-update-gate")
    assert catalog.prepared("gru-update-gate") is first
    edit(folder / "cases.py", '"h_prev": np.array([0.8, -0.3, 0.5]),',
         '"h_prev": np.array([0.0, 0.0, 0.0]),')
    edit(folder / "exercise.toml", 'title = "GRU update gate"', 'title = "Update gate"')
    second = catalog.prepared("gru-update-gate")
    assert second is not first
    assert second.exercise.version != first.exercise.version
    assert second.exercise.version == folder_version(folder)
    assert second.exercise.title == "Update gate"
    np.testing.assert_array_equal(second.cases[0].inputs["h_prev"], np.zeros(3))
    assert not np.allclose(second.cases[0].expected, first.cases[0].expected)
    assert catalog.load("gru-update-gate").title == "Update gate"
    assert catalog.prepared("gru-update-gate") is second
    assert list(catalog._prepared) == [("gru-update-gate", second.exercise.version)]


def test_catalog_keeps_a_loaded_exercise_until_a_file_changes(tmp_path: Path) -> None:
    root = tmp_path / "exercises"
    shutil.copytree(EXERCISES / "gru-update-gate", root / "gru-update-gate")
    catalog = ExerciseCatalog(root)
    first = catalog.load("gru-update-gate")
    assert catalog.load("gru-update-gate") is first
    statement = root / "gru-update-gate" / "statement.md"
    statement.write_text(statement.read_text() + "\nOne more line.\n")
    edited = catalog.load("gru-update-gate")
    assert edited is not first
    assert edited.version != first.version
    assert edited.statements["en"].endswith("One more line.\n")


def test_a_mistake_hint_is_read_without_running_the_file(tmp_path: Path) -> None:
    folder = tmp_path / "gru-update-gate"
    shutil.copytree(EXERCISES / "gru-update-gate", folder)
    (folder / "mistakes" / "loud.py").write_text(
        'raise SystemExit("ran at load time")\nHINT = "A hint."\n')
    exercise = load_exercise(folder)
    assert [m.hint for m in exercise.mistakes if m.name == "loud"] == ["A hint."]


def test_a_hint_that_is_not_a_literal_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "gru-update-gate"
    shutil.copytree(EXERCISES / "gru-update-gate", folder)
    (folder / "mistakes" / "computed.py").write_text('HINT = "a" + str(1)\n')
    with pytest.raises(ExerciseError, match=r"mistakes/computed.py: HINT must be a plain string"):
        load_exercise(folder)


def test_preparing_an_exercise_blocks_neither_loading_nor_another_exercise(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Preparing takes seconds: meanwhile the catalog still loads and prepares the others,
    and a second caller for the same version waits for the first one's work."""
    make_catalog_entry(tmp_path, "slow", 1)
    make_catalog_entry(tmp_path, "quick", 2)
    catalog = ExerciseCatalog(tmp_path)
    release, calls = threading.Event(), []
    real = graders.exercises.catalog.prepare_version

    def prepare(exercise: Exercise) -> PreparedExercise:
        calls.append(exercise.id)
        if exercise.id == "slow":
            release.wait()
        return real(exercise)

    monkeypatch.setattr(graders.exercises.catalog, "prepare_version", prepare)
    waiting = [threading.Thread(target=catalog.prepared, args=("slow",)) for _ in range(2)]
    for thread in waiting:
        thread.start()
    while "slow" not in calls:
        time.sleep(0.01)
    # The first call is inside prepare_version, holding its version's lock only.
    assert catalog.load("slow").id == "slow" and catalog.all()
    assert catalog.prepared("quick").exercise.id == "quick"
    release.set()
    for thread in waiting:
        thread.join()
    assert calls.count("slow") == 1 and catalog.prepared("slow").exercise.id == "slow"


def test_a_copy_of_a_prepared_folder_is_not_prepared_again(tmp_path: Path) -> None:
    first = make_catalog_entry(tmp_path / "one", "gru-update-gate", 10)
    second = make_catalog_entry(tmp_path / "two", "gru-update-gate", 10)
    one = ExerciseCatalog(tmp_path / "one").prepared("gru-update-gate")
    two = ExerciseCatalog(tmp_path / "two").prepared("gru-update-gate")
    assert two.cases is one.cases and two.candidates is one.candidates
    assert (one.exercise.path, two.exercise.path) == (first, second)
    edit(second / "cases.py", '"h_prev": np.array([0.8, -0.3, 0.5]),',
         '"h_prev": np.array([0.0, 0.0, 0.0]),')
    edited = ExerciseCatalog(tmp_path / "two").prepared("gru-update-gate")
    np.testing.assert_array_equal(edited.cases[0].inputs["h_prev"], np.zeros(3))
