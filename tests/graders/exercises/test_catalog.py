"""graders/exercises/catalog.py: listing, loading and preparing the folders under one root."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

import numpy as np
import pytest

import graders.exercises.catalog
import graders.exercises.preparation
from graders.api import (
    Exercise,
    ExerciseCatalog,
    ExerciseError,
    ExerciseNotFound,
    PreparedExercise,
    SandboxLimits,
)
from graders.exercises import folder_version
from tests.graders.helpers import EXERCISES, GATE, edit, make_tiny_exercise


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


@pytest.mark.parametrize(
    "exercise_id",
    [
        "",
        "missing",
        "../gru-update-gate",
        ".hidden",
        "a/b",
        "x" * 256,
        "é" * 128,
        "a\x00b",
        "\ud800",
    ],
)
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
    edit(
        folder / "cases.py",
        '"h_prev": np.array([0.8, -0.3, 0.5]),',
        '"h_prev": np.array([0.0, 0.0, 0.0]),',
    )
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


def test_preparing_an_exercise_blocks_neither_loading_nor_another_exercise(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Preparing takes seconds: meanwhile the catalog still loads and prepares the others,
    and a second caller for the same version waits for the first one's work."""
    make_catalog_entry(tmp_path, "slow", 1)
    make_catalog_entry(tmp_path, "quick", 2)
    catalog = ExerciseCatalog(tmp_path)
    preparing, release, calls = threading.Event(), threading.Event(), []
    real = graders.exercises.preparation.prepare_version

    def prepare(exercise: Exercise, sandbox_limits: SandboxLimits | None) -> PreparedExercise:
        calls.append(exercise.id)
        if exercise.id == "slow":
            preparing.set()
            release.wait()
        return real(exercise, sandbox_limits)

    monkeypatch.setattr(graders.exercises.catalog, "prepare_version", prepare)
    waiting = [threading.Thread(target=catalog.prepared, args=("slow",)) for _ in range(2)]
    for thread in waiting:
        thread.start()
    assert preparing.wait(30), "no thread began to prepare"
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
    edit(
        second / "cases.py",
        '"h_prev": np.array([0.8, -0.3, 0.5]),',
        '"h_prev": np.array([0.0, 0.0, 0.0]),',
    )
    edited = ExerciseCatalog(tmp_path / "two").prepared("gru-update-gate")
    np.testing.assert_array_equal(edited.cases[0].inputs["h_prev"], np.zeros(3))


def test_a_catalog_keeps_one_object_per_version_of_a_copied_folder(tmp_path: Path) -> None:
    # prepare_version hands a copy of a folder a new object on every call, and grading caches
    # its plans per object: the catalog keeps the one it was handed.
    make_catalog_entry(tmp_path / "one", "gru-update-gate", 10)
    make_catalog_entry(tmp_path / "two", "gru-update-gate", 10)
    one = ExerciseCatalog(tmp_path / "one").prepared("gru-update-gate")
    two = ExerciseCatalog(tmp_path / "two")
    assert two.prepared("gru-update-gate") is two.prepared("gru-update-gate") is not one


def test_an_edited_folder_that_does_not_prepare_is_served_from_its_last_good_version(
    tmp_path: Path,
) -> None:
    folder = make_tiny_exercise(tmp_path)
    catalog = ExerciseCatalog(tmp_path)
    good = catalog.prepared("count-above")
    assert catalog.stale() == []
    edit(folder / "cases.py", "return {", "retrun {")  # a typo: cases.py no longer parses
    broken_version = folder_version(folder)
    assert catalog.prepared("count-above") is good
    (stale,) = catalog.stale()
    assert (stale.exercise_id, stale.served_version, stale.failing_version) == (
        "count-above",
        good.exercise.version,
        broken_version,
    )
    assert stale.problem.startswith("count-above/cases.py: raised SyntaxError: ")
    assert stale.describe() == (
        f"exercise 'count-above': its folder does not load ({stale.problem}); graded against "
        f"its last good version {good.exercise.version} until it is fixed"
    )
    assert catalog.prepared("count-above") is good  # the broken version is not tried again
    edit(folder / "cases.py", "retrun {", "return {")
    edit(folder / "cases.py", '"threshold": 1.5', '"threshold": 2.5')
    fixed = catalog.prepared("count-above")
    assert fixed is not good
    assert fixed.exercise.version == folder_version(folder)
    assert fixed.cases[0].expected == 1
    assert catalog.stale() == []


def test_an_unreadable_folder_is_served_from_its_last_good_version(tmp_path: Path) -> None:
    folder = make_tiny_exercise(tmp_path)
    catalog = ExerciseCatalog(tmp_path)
    good = catalog.prepared("count-above")
    edit(folder / "exercise.toml", 'difficulty = "easy"', 'difficulty = "extreme"')
    assert catalog.load("count-above") is good.exercise
    assert catalog.prepared("count-above") is good
    assert [e.id for e in catalog.all()] == ["count-above"]
    (stale,) = catalog.stale()
    assert stale.failing_version is None
    assert stale.problem.startswith("count-above/exercise.toml: field 'difficulty' must be")
    edit(folder / "exercise.toml", 'difficulty = "extreme"', 'difficulty = "easy"')
    assert catalog.prepared("count-above") is good  # the same content: the same version
    assert catalog.stale() == []


def test_a_folder_that_never_prepared_is_still_an_error(tmp_path: Path) -> None:
    folder = make_tiny_exercise(tmp_path)
    edit(folder / "cases.py", "return {", "retrun {")
    catalog = ExerciseCatalog(tmp_path)
    with pytest.raises(ExerciseError, match=r"count-above/cases\.py: raised SyntaxError"):
        catalog.prepared("count-above")
    assert catalog.stale() == []
