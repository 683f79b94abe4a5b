"""The exercise folder watch: every kind of change moves its count before the change's system
call returns, and where a change could go unseen the catalog checks the files every time."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import graders.exercises.catalog
import graders.folder_watch
from graders.exercises import ExerciseCatalog
from graders.folder_watch import FolderWatch
from tests.graders.helpers import EXERCISES

GATE = "gru-update-gate"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    shutil.copytree(EXERCISES / GATE, tmp_path / "exercises" / GATE)
    return tmp_path / "exercises"


@pytest.fixture
def watch(root: Path) -> FolderWatch:
    started = FolderWatch.start(root)
    assert started is not None, "tmp_path is on a local file system here"
    return started


def write_in_place(path: Path) -> None:
    with path.open("a") as file:  # what an editor that does not rename does
        file.write("\n# edited\n")


CHANGES: dict[str, Callable[[Path], object]] = {
    "a file written in place": lambda root: write_in_place(root / GATE / "cases.py"),
    "a file in a subfolder written": lambda root: write_in_place(
        root / GATE / "mistakes" / "tanh_gate.py"
    ),
    "a new file": lambda root: (root / GATE / "mistakes" / "new.py").write_text("x = 1\n"),
    "a file deleted": lambda root: (root / GATE / "theory.md").unlink(),
    "a file renamed over another": lambda root: (root / GATE / "theory.ja.md").replace(
        root / GATE / "theory.md"
    ),
    "a file's time changed": lambda root: os.utime(root / GATE / "solution.py", (1, 1)),
    "a new exercise folder": lambda root: shutil.copytree(root / GATE, root / "copy"),
    "course.toml written": lambda root: (root / "course.toml").write_text("[course]\n"),
}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_every_change_moves_the_count_at_once(root: Path, watch: FolderWatch, change: str) -> None:
    before = watch.generation()
    assert before is not None and watch.generation() == before
    CHANGES[change](root)
    after = watch.generation()
    assert after is not None and after != before
    assert watch.generation() == after  # and stays until the next change


def test_a_folder_made_then_filled_is_watched_from_then_on(root: Path, watch: FolderWatch) -> None:
    (root / GATE / "notes").mkdir()
    made = watch.generation()
    (root / GATE / "notes" / "later.md").write_text("x")
    filled = watch.generation()
    assert made is not None and filled is not None and filled != made
    write_in_place(root / GATE / "notes" / "later.md")
    assert watch.generation() != filled


def test_a_tree_moved_in_is_watched_to_its_depth(
    root: Path, tmp_path: Path, watch: FolderWatch
) -> None:
    outside = tmp_path / "elsewhere" / GATE
    shutil.copytree(EXERCISES / GATE, outside)
    outside.rename(root / "moved")
    moved = watch.generation()
    write_in_place(root / "moved" / "mistakes" / "tanh_gate.py")
    assert watch.generation() != moved


def test_the_catalog_reads_the_files_only_after_a_change(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stamps = count_calls(monkeypatch, graders.exercises.catalog, "folder_stamp")
    catalog = ExerciseCatalog(root)
    first = catalog.load(GATE)
    assert catalog.load(GATE) is first and catalog.schedule() is catalog.schedule()
    assert stamps == [GATE]
    for round_ in range(20):  # each edit is seen by the very next load, never later
        (root / GATE / "statement.md").write_text(f"round {round_}\n")
        assert catalog.load(GATE).statements["en"] == f"round {round_}\n"
    assert len(stamps) == 21


@pytest.mark.parametrize("link", ["a symbolic link", "a hard link"])
def test_a_linked_file_is_not_watched(root: Path, tmp_path: Path, link: str) -> None:
    target = tmp_path / "shared.md"
    target.write_text("shared")
    if link == "a symbolic link":
        (root / GATE / "shared.md").symlink_to(target)
    else:
        os.link(target, root / GATE / "shared.md")
    assert FolderWatch.start(root) is None


def test_a_link_made_later_stops_the_watch(root: Path, tmp_path: Path, watch: FolderWatch) -> None:
    (tmp_path / "shared.md").write_text("shared")
    (root / GATE / "shared.md").symlink_to(tmp_path / "shared.md")
    assert watch.generation() is None
    assert watch.generation() is None  # for good: it cannot know what the link's target does


def test_a_remote_file_system_is_not_watched(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(graders.folder_watch, "file_system_type", lambda path: "nfs4")
    assert FolderWatch.start(root) is None
    stamps = count_calls(monkeypatch, graders.exercises.catalog, "folder_stamp")
    catalog = ExerciseCatalog(root)
    catalog.load(GATE)
    catalog.load(GATE)
    assert stamps == [GATE, GATE]


def test_the_root_replaced_makes_the_watch_blind(
    root: Path, tmp_path: Path, watch: FolderWatch
) -> None:
    root.rename(tmp_path / "old")
    shutil.copytree(tmp_path / "old", root)
    assert watch.generation() is None


def test_lost_events_make_the_catalog_read_every_time(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from inotify_simple import Event, flags

    catalog = ExerciseCatalog(root)
    catalog.load(GATE)
    assert catalog._watch is not None
    overflow = [Event(-1, flags.Q_OVERFLOW, 0, "")]
    monkeypatch.setattr(catalog._watch._inotify, "read", lambda timeout: overflow)
    stamps = count_calls(monkeypatch, graders.exercises.catalog, "folder_stamp")
    catalog.load(GATE)
    catalog.load(GATE)
    assert stamps == [GATE, GATE]


def test_the_file_system_of_a_path(tmp_path: Path) -> None:
    local = graders.folder_watch.LOCAL_FILE_SYSTEMS
    assert graders.folder_watch.file_system_type(tmp_path) in local
    assert graders.folder_watch.file_system_type(Path("/proc/self")) == "proc"


def count_calls(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[str]:
    real, calls = getattr(module, name), []

    def counted(path: Path) -> Any:
        calls.append(path.name)
        return real(path)

    monkeypatch.setattr(module, name, counted)
    return calls


MOUNTINFO = """\
22 1 259:2 / / rw,relatime shared:1 - ext4 /dev/root rw
30 22 0:26 / /srv rw shared:9 - nfs4 server:/srv rw
31 30 0:27 / /srv/local\\040copy rw shared:10 - tmpfs tmpfs rw
32 22 0:28 / /srvx rw shared:11 - xfs /dev/sdb rw
"""


@pytest.mark.parametrize(
    ("target", "kind"),
    [
        ("/home/ada/exercises", "ext4"),
        ("/srv/course/exercises", "nfs4"),
        ("/srv/local copy/exercises", "tmpfs"),
        ("/srv", "nfs4"),
        ("/srvx/exercises", "xfs"),
    ],
)
def test_the_deepest_mount_holding_a_path_gives_its_type(target: str, kind: str) -> None:
    assert graders.folder_watch.mount_type(MOUNTINFO, target) == kind
